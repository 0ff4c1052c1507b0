// The log's own facts (log_facts.h): what a pasted log says about its machine, each with its line, and
// whether that machine is the one explain runs on. Logs here are excerpts of the corpus.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_facts.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {
namespace {

std::vector<LogFact> FactsOf(const std::string& log) {
  LogScanner scanner(EmbeddedPrefilter(true));
  scanner.Feed(log);
  scanner.Finish();
  return scanner.facts();
}

const LogFact* Find(const std::vector<LogFact>& facts, const std::string& kind) {
  for (const LogFact& f : facts)
    if (f.kind == kind) return &f;
  return nullptr;
}

Snapshot MachineWith(const std::string& name, const std::string& arch) {
  Snapshot snap;
  Gpu g;
  g.vendor = GpuVendor::kAmd;
  g.name = name;
  g.architecture = arch;
  g.pci_address = "0000:03:00.0";
  snap.gpus.push_back(g);
  snap.os.family = OsFamily::kLinux;
  return snap;
}

const char* kCollectEnv = R"(PyTorch version: 2.8.0.dev20250529+rocm6.4
Is debug build: False
ROCM used to build PyTorch: 6.4.43482-0f2d60242

OS: Ubuntu 24.04.1 LTS (x86_64)
Python version: 3.12.3 (main, Feb  4 2025, 14:48:35) [GCC 13.3.0] (64-bit runtime)
Python platform: Linux-6.6.87.1-microsoft-standard-WSL2-x86_64-with-glibc2.39
RuntimeError: No HIP GPUs are available
)";

TEST(ExplainLogFacts, EveryRowOfTheTableCompiles) {
  EXPECT_EQ(LogFactPatterns().size(), LogFactRowCount());
  for (const LogFactPattern& p : LogFactPatterns()) EXPECT_GE(p.pattern.literal.size(), 3u) << p.pattern.text;
}

TEST(ExplainLogFacts, ReadsVersionsPlatformAndMarkersWithTheirLines) {
  auto facts = FactsOf(kCollectEnv);
  const LogFact* torch = Find(facts, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->value, "2.8.0.dev20250529+rocm6.4");
  EXPECT_EQ(torch->line, 1u);
  ASSERT_NE(Find(facts, "rocm"), nullptr);
  EXPECT_EQ(Find(facts, "rocm")->value, "6.4");  // from +rocm6.4 on line 1, first seen
  ASSERT_NE(Find(facts, "os"), nullptr);
  EXPECT_EQ(Find(facts, "os")->value, "Ubuntu 24.04.1");
  EXPECT_EQ(Find(facts, "os")->line, 5u);
  ASSERT_NE(Find(facts, "python"), nullptr);
  EXPECT_EQ(Find(facts, "python")->value, "3.12.3");
  ASSERT_NE(Find(facts, "wsl"), nullptr);
  EXPECT_EQ(Find(facts, "wsl")->line, 7u);
  ASSERT_NE(Find(facts, "kernel"), nullptr);
  EXPECT_EQ(Find(facts, "kernel")->value.rfind("6.6.87.1", 0), 0u);
}

TEST(ExplainLogFacts, ReadsGpusTargetsAndApplications) {
  auto facts = FactsOf(
      "YOLOv5 v6.2-13-gc0e7a77 Python-3.8.10 torch-1.12.1+rocm5.1.1 CUDA:0 (AMD Radeon RX 6800 XT, "
      "16368MiB)\n"
      "MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_36.kdb Performance may "
      "degrade.\n"
      "C:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py\n");
  ASSERT_NE(Find(facts, "gpu"), nullptr);
  EXPECT_EQ(Find(facts, "gpu")->value, "AMD Radeon RX 6800 XT");
  ASSERT_NE(Find(facts, "gfx"), nullptr);
  EXPECT_EQ(Find(facts, "gfx")->value, "gfx1030");
  EXPECT_EQ(Find(facts, "gfx")->line, 2u);
  ASSERT_NE(Find(facts, "torch"), nullptr);
  EXPECT_EQ(Find(facts, "torch")->value, "1.12.1+rocm5.1.1");
  ASSERT_NE(Find(facts, "portable"), nullptr);
  EXPECT_EQ(Find(facts, "portable")->line, 3u);
  ASSERT_NE(Find(facts, "app"), nullptr);
  EXPECT_EQ(Find(facts, "app")->value, "ComfyUI");
}

const LogFact* FindValue(const std::vector<LogFact>& facts, const std::string& value) {
  for (const LogFact& f : facts)
    if (f.value == value) return &f;
  return nullptr;
}

// A GPU fact carries its maker, read where the fact is (issue 34): from its pattern, or for rocminfo's
// "Marketing Name:", which also names CPUs, from the GPU patterns' words in the name.
TEST(ExplainLogFacts, GpuFactsKnowTheirVendor) {
  auto facts = FactsOf(
      "NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible\n"
      "GPU 1: NVIDIA H100 80GB HBM3\n"
      "CUDA:0 (AMD Radeon RX 6800 XT, 16368MiB)\n"
      "  Marketing Name:          AMD Ryzen 9 7950X 16-Core Processor\n"
      "  Marketing Name:          AMD Radeon(TM) Graphics\n"
      "  Marketing Name:          AMD Instinct MI250X/MI250\n");
  const std::vector<std::pair<std::string, GpuVendor>> expected = {
      {"NVIDIA GeForce RTX 4090", GpuVendor::kNvidia},
      {"NVIDIA H100", GpuVendor::kNvidia},
      {"AMD Radeon RX 6800 XT", GpuVendor::kAmd},
      {"AMD Ryzen 9 7950X 16-Core Processor", GpuVendor::kUnknown},
      {"AMD Radeon(TM) Graphics", GpuVendor::kAmd},
      {"AMD Instinct MI250X/MI250", GpuVendor::kAmd}};
  for (const auto& [value, vendor] : expected) {
    const LogFact* f = FindValue(facts, value);
    ASSERT_NE(f, nullptr) << value;
    EXPECT_EQ(f->kind, "gpu") << value;
    EXPECT_EQ(f->vendor, vendor) << value;
  }
  ASSERT_NE(Find(facts, "sm"), nullptr);
  EXPECT_EQ(Find(facts, "sm")->vendor, GpuVendor::kUnknown);  // only GPU facts carry one
}

// A list of targets a build supports names no GPU: the log is not from a gfx1030 or sm_50 machine. The
// target that stands alone is still read.
TEST(ExplainLogFacts, TargetsInAListOfSupportedOnesAreNotTheGpus) {
  auto listed = FactsOf(
      "level=WARN msg=\"amdgpu is not supported (supported types:[gfx1030 gfx1100 gfx1101])\" "
      "gpu_type=gfx1031\n"
      "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n");
  EXPECT_EQ(Find(listed, "gfx"), nullptr);
  EXPECT_EQ(Find(listed, "sm"), nullptr);
  auto single = FactsOf(
      "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
      "installation.\nrocBLAS error: Cannot read TensileLibrary.dat: No such file or directory for GPU arch "
      ": "
      "gfx1201\n");
  ASSERT_NE(Find(single, "sm"), nullptr);
  EXPECT_EQ(Find(single, "sm")->value, "sm_120");
  ASSERT_NE(Find(single, "gfx"), nullptr);
  EXPECT_EQ(Find(single, "gfx")->value, "gfx1201");
}

TEST(ExplainLogFacts, KeepsAFewValuesPerKindOnAHugeLog) {
  std::string log;
  for (int i = 0; i < 5000; ++i)
    log += "rank " + std::to_string(i) + " on gfx" + std::to_string(900 + i) + "\n";
  auto facts = FactsOf(log);
  size_t gfx = 0;
  for (const LogFact& f : facts) gfx += f.kind == "gfx" ? 1 : 0;
  EXPECT_EQ(gfx, kMaxLogFactValuesPerKind);
}

TEST(ExplainLogFacts, ALogNamingOtherGpusIsFromAnotherMachine) {
  const Snapshot here = MachineWith("Radeon RX 7900 XTX", "gfx1100");
  auto other = CompareLogWithMachine(FactsOf("HIP error on gfx1032 (AMD Radeon RX 6600)\n"), here);
  EXPECT_TRUE(other.other_machine);
  EXPECT_NE(other.reason.find("Radeon RX 7900 XTX"), std::string::npos);
  EXPECT_FALSE(CompareLogWithMachine(FactsOf("the kernel for gfx1100 failed\n"), here).other_machine);
  EXPECT_FALSE(CompareLogWithMachine(FactsOf("AMD Radeon RX 7900 XTX hung\n"), here).other_machine);
  EXPECT_FALSE(
      CompareLogWithMachine(FactsOf("No HIP GPUs are available\n"), here).other_machine);  // no names
}

TEST(ExplainLogFacts, ReportUsesTheLogsFactsForAnotherMachineUnlessHere) {
  const Snapshot here = MachineWith("Radeon RX 7900 XTX", "gfx1100");
  const std::string log =
      "device gfx1032\nhipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n";
  LogScanner scanner(EmbeddedPrefilter(true));
  scanner.Feed(log);
  scanner.Finish();
  ExplainReport other =
      BuildExplainReport(scanner.matches(), scanner.stats(), here, EmbeddedDb(), scanner.facts(), false);
  ASSERT_EQ(other.matches.size(), 1u);
  EXPECT_TRUE(other.log_machine.other_machine);
  EXPECT_TRUE(other.matches[0].facts.empty());
  EXPECT_EQ(other.matches[0].facts_about, "the log's machine");
  auto json = nlohmann::json::parse(RenderExplainJson(other));
  ASSERT_EQ(json["log_facts"].size(), 1u);
  EXPECT_EQ(json["log_facts"][0]["kind"], "gfx");
  EXPECT_EQ(json["log_facts"][0]["value"], "gfx1032");
  EXPECT_EQ(json["log_facts"][0]["line"], 1);
  EXPECT_EQ(json["matches"][0]["facts_about"], "the log's machine");
  EXPECT_TRUE(json["log_machine"]["other_machine"].get<bool>());
  EXPECT_NE(RenderExplainText(other, false).find("The log is from another machine"), std::string::npos);

  ExplainReport forced =
      BuildExplainReport(scanner.matches(), scanner.stats(), here, EmbeddedDb(), scanner.facts(), true);
  EXPECT_FALSE(forced.log_machine.other_machine);
  EXPECT_FALSE(forced.matches[0].facts.empty());  // this machine's gpu_arch, override, ... lines
}

TEST(ExplainLogFacts, AWindowsLogOnALinuxMachineGetsPowerShellFixes) {
  const Snapshot here = MachineWith("Radeon RX 7900 XTX", "gfx1100");
  const std::string log =
      "C:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py\n"
      "AssertionError: Torch not compiled with CUDA enabled\n";
  LogScanner scanner(EmbeddedPrefilter(true));
  scanner.Feed(log);
  scanner.Finish();
  ExplainReport r =
      BuildExplainReport(scanner.matches(), scanner.stats(), here, EmbeddedDb(), scanner.facts(), false);
  EXPECT_TRUE(r.log_machine.other_machine);
  EXPECT_NE(r.log_machine.reason.find("windows"), std::string::npos) << r.log_machine.reason;
  EXPECT_TRUE(r.windows);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches[0].match.entry->id, "torch.not_compiled_with_cuda.portable");
  EXPECT_NE(RenderExplainText(r, false).find("PS> .\\python_embeded\\python.exe -m pip install"),
            std::string::npos)
      << RenderExplainText(r, false);
}

}  // namespace
}  // namespace gpudoctor
