// A synthetic fleet for `fleet merge` tests: 50 nodes (node001 .. node050), each with a check, a verify and a
// bench report in the shapes docs/check-json.md, docs/verify-json.md and docs/bench-json.md give, figures
// spread by a few percent around the same values, and four planted outliers:
//   node017  a slow memory.triad (30% below the others)
//   node023  an old NVIDIA driver (550.54.15 where the rest run 570.124.06)
//   node031  a failed verify gate (memtest)
//   node042  a different torch (2.6.0+cu124 where the rest run 2.7.1+cu128)
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpudoctor::testing {

struct SyntheticReport {
  std::string file_name;  // "node017.bench.json"
  std::string text;
};

inline std::string NodeName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "node%03d", i);
  return buf;
}

// A deterministic spread of at most +-3% (no randomness: the test must give the same fleet every run).
inline double Spread(int node, int salt) {
  return 1.0 + 0.03 * (((node * 37 + salt * 11) % 21) - 10) / 10.0;
}

inline std::vector<SyntheticReport> SyntheticFleet() {
  using Json = nlohmann::json;
  std::vector<SyntheticReport> out;
  for (int i = 1; i <= 50; ++i) {
    std::string host = NodeName(i);
    Json check = {
        {"schema", "gpudoctor.check"},
        {"schema_version", 1},
        {"verdict", "ok"},
        {"exit_code", 0},
        {"machine",
         {{"host_name", host},
          {"nvidia_driver", i == 23 ? "550.54.15" : "570.124.06"},
          {"gpus",
           Json::array(
               {{{"pci_address", "0000:18:00.0"}, {"vendor", "nvidia"}, {"name", "NVIDIA H100 80GB HBM3"}}})},
          {"torch", Json::array({{{"site_packages", "/home/u/.venv/lib/python3.10/site-packages"},
                                  {"version", i == 42 ? "2.6.0+cu124" : "2.7.1+cu128"},
                                  {"cuda", i == 42 ? "12.4" : "12.8"}}})}}},
        {"findings",
         Json::array({{{"id", "hardware.gpus_found"}, {"severity", "ok"}, {"title", "8 GPUs"}}})}};
    out.push_back({host + ".check.json", check.dump(2)});

    Json gates = Json::array();
    gates.push_back(
        {{"gate", "copy"},
         {"status", "pass"},
         {"summary", "host<->device copies intact"},
         {"figures", Json::array({{{"label", "H2D"}, {"value", 55.0 * Spread(i, 1)}, {"unit", "GB/s"}}})}});
    gates.push_back(
        {{"gate", "gemm_fp16"},
         {"status", "pass"},
         {"summary", "fp16 GEMM agrees"},
         {"figures",
          Json::array({{{"label", "fp16"}, {"value", 700.0 * Spread(i, 2)}, {"unit", "TFLOP/s"}}})}});
    gates.push_back({{"gate", "memtest"},
                     {"status", i == 31 ? "fail" : "pass"},
                     {"summary", i == 31 ? "3 words differ at 0x7f2a00001000" : "10% of VRAM tested"},
                     {"figures", Json::array()}});
    Json verify = {{"schema_version", 1}, {"level", "quick"},
                   {"backend", "cuda"},   {"runtime_version", "CUDA driver API 12.8"},
                   {"gates", gates},      {"exit_code", i == 31 ? 1 : 0}};
    out.push_back({host + ".verify.json", verify.dump(2)});

    Json benchmarks = Json::array();
    benchmarks.push_back({{"id", "memory.triad"},
                          {"unit", "GB/s"},
                          {"higher_is_better", true},
                          {"verdict", i == 17 ? "low" : "ok"},
                          {"check", "passed"},
                          {"best", (i == 17 ? 2800.0 : 4000.0) * Spread(i, 3)},
                          {"points", Json::array()}});
    benchmarks.push_back({{"id", "gemm.fp32"},
                          {"unit", "TFLOP/s"},
                          {"higher_is_better", true},
                          {"verdict", "ok"},
                          {"check", "passed"},
                          {"best", 51.0 * Spread(i, 4)},
                          {"points", Json::array()}});
    benchmarks.push_back({{"id", "latency.launch"},
                          {"unit", "us"},
                          {"higher_is_better", false},
                          {"verdict", "ok"},
                          {"check", "passed"},
                          {"best", 2.5 * Spread(i, 5)},
                          {"points", Json::array()}});
    Json bench = {{"schema", "gpudoctor.bench/1"},
                  {"device", {{"index", 0}, {"name", "NVIDIA H100 80GB HBM3"}, {"backend", "cuda"}}},
                  {"runtime_version", "CUDA driver API 12.8"},
                  {"benchmarks", benchmarks}};
    out.push_back({host + ".bench.json", bench.dump(2)});
  }
  return out;
}

}  // namespace gpudoctor::testing
