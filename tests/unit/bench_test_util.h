// Shared by the bench tests: a sink that collects what benchmarks report, a run of one group in-process on
// the scripted fake backend, and results built by hand for the judgement and rendering tests.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "bench/bench_fake_kernels.h"
#include "bench/benchmark.h"
#include "gpu/fake/fake_backend.h"
#include "telemetry/telemetry_json.h"

namespace gpudoctor {

class CollectingSink final : public BenchSink {
 public:
  void Begin(const std::string& id) override { begun.push_back(id); }
  void Emit(const BenchResult& result) override { results.push_back(result); }
  void Telemetry(const BenchTelemetry& reading) override { telemetry.push_back(reading); }
  const BenchResult* Find(const std::string& id) const {
    for (const auto& r : results)
      if (r.spec.id == id) return &r;
    return nullptr;
  }
  std::vector<std::string> begun;
  std::vector<BenchResult> results;
  std::vector<BenchTelemetry> telemetry;
};

// A fake GPU with `memory_bytes` of memory; `extra` adds keys to the script ("\"corrupt\": \"launch\"").
inline std::string FakeScript(uint64_t memory_bytes, const std::string& extra = "") {
  return R"({"devices": [{"name": "Fake GPU", "pci_address": "0000:03:00.0", "arch": "sm_90", "compute_units": 4,
             "memory_total_bytes": )" +
         std::to_string(memory_bytes) + "}]" + (extra.empty() ? "" : ", " + extra) + "}";
}

// Runs every benchmark of `group` in this process on a fake backend made from `script`.
inline CollectingSink RunGroupOnFake(const std::string& group, const std::string& script,
                                     BenchOptions options = BenchOptions{}) {
  CollectingSink sink;
  auto backend = FakeBackend::FromScript(script, BenchFakeKernels());
  EXPECT_TRUE(backend.ok()) << (backend.ok() ? "" : backend.error().message);
  if (!backend.ok()) return sink;
  auto groups = MakeBenchmarks();
  Benchmark* g = FindGroup(groups, group);
  EXPECT_NE(g, nullptr) << group;
  if (!g) return sink;
  std::vector<std::string> ids;
  for (const auto& s : g->Specs()) ids.push_back(s.id);
  BenchContext ctx{**backend,
                   options,
                   sink,
                   "",
                   stderr,
                   0,
                   [script](const std::string&) { return ScriptedSamplerFromJson(script); },
                   nullptr};
  g->Run(ctx, ids);
  return sink;
}

inline BenchResult MadeResult(const std::string& id, std::optional<double> best,
                              const std::string& unit = "GB/s", bool higher_is_better = true) {
  BenchResult r;
  std::string group = id.substr(0, id.find('.'));
  r.spec = {id, group, "Title of " + id, unit, "size", "bytes", higher_is_better};
  r.run = BenchRun::kMeasured;
  r.check = BenchCheck::kPassed;
  if (best) r.points = {{1048576, *best / 2}, {1073741824, *best}};
  r.best = best;
  return r;
}

}  // namespace gpudoctor
