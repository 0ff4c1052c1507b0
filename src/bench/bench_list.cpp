// The one list of benchmark groups, in the order `gpudoctor bench` runs them. No registration by static
// constructors: a new group is one file and one line here.
#include "bench/benchmark.h"

namespace gpudoctor {

std::unique_ptr<Benchmark> MakeMemoryBenchmark();    // bench_memory.cpp
std::unique_ptr<Benchmark> MakeTransferBenchmark();  // bench_transfer.cpp
std::unique_ptr<Benchmark> MakeGemmBenchmark();      // bench_gemm.cpp
std::unique_ptr<Benchmark> MakeLatencyBenchmark();   // bench_latency.cpp

std::vector<std::unique_ptr<Benchmark>> MakeBenchmarks() {
  std::vector<std::unique_ptr<Benchmark>> list;
  list.push_back(MakeMemoryBenchmark());
  list.push_back(MakeTransferBenchmark());
  list.push_back(MakeGemmBenchmark());
  list.push_back(MakeLatencyBenchmark());
  return list;
}

std::vector<BenchSpec> AllBenchSpecs() {
  std::vector<BenchSpec> out;
  for (const auto& g : MakeBenchmarks())
    for (auto& s : g->Specs()) out.push_back(std::move(s));
  return out;
}

Benchmark* FindGroup(const std::vector<std::unique_ptr<Benchmark>>& groups, const std::string& name) {
  for (const auto& g : groups)
    if (g->Name() == name) return g.get();
  return nullptr;
}

}  // namespace gpudoctor
