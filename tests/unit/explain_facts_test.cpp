// Explanations with machine facts, on the recorded machines of tests/fixtures/sysroot and on small
// hand-made snapshots (Windows, NVIDIA), plus the report: exit codes, text and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "explain/explain_catalog.h"
#include "explain/explain_facts.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;

Snapshot RecordedSnapshot(const std::string& name) {
  return ProbeMachine(MakeRecordedInputs(kFixtures + name, &EmbeddedDb()));
}

std::string AllFacts(const std::string& message, const Snapshot& snap, std::string* id = nullptr) {
  auto matches = ScanEmbedded(message);
  EXPECT_EQ(matches.size(), 1u) << message;
  if (matches.empty()) return {};
  if (id != nullptr) *id = matches[0].entry->id;
  std::string out;
  for (const FactLine& f : FactsForMatch(matches[0], snap, EmbeddedDb()))
    out += f.fact + ": " + f.text + "\n";
  return out;
}

// knowledge-facts 7.3 #3 (github.com/ROCm/rocBLAS/issues/1339), on the RX 6700 XT desktop.
TEST(ExplainFacts, TensileLibraryOnRx6700xtNamesTargetAndOverride) {
  std::string id;
  std::string facts = AllFacts(
      "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or "
      "directory for "
      "GPU arch : gfx1031",
      RecordedSnapshot("rx6700xt-desktop"), &id);
  EXPECT_EQ(id, "rocblas.tensile_library_missing");
  EXPECT_NE(facts.find("is gfx1031"), std::string::npos) << facts;
  EXPECT_NE(facts.find("the target of this machine's GPU"), std::string::npos) << facts;
  EXPECT_NE(facts.find("HSA_OVERRIDE_GFX_VERSION is set to 10.3.0"), std::string::npos) << facts;
  EXPECT_NE(facts.find("the value that works is HSA_OVERRIDE_GFX_VERSION=10.3.0"), std::string::npos)
      << facts;
  EXPECT_NE(facts.find("gfx103X"), std::string::npos) << facts;  // TheRock family or multi-arch extra
}

// The override makes the runtime ask for gfx1030 on a gfx1031 card: the facts say so.
TEST(ExplainFacts, MessageNamingTheOverriddenTargetIsExplained) {
  std::string facts = AllFacts(
      "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or "
      "directory for "
      "GPU arch : gfx1030",
      RecordedSnapshot("rx6700xt-desktop"));
  EXPECT_NE(facts.find("HSA_OVERRIDE_GFX_VERSION=10.3.0 makes the runtime use"), std::string::npos) << facts;
}

TEST(ExplainFacts, WindowsNeverSuggestsTheOverride) {
  Snapshot snap;
  snap.os.family = OsFamily::kWindows;
  Gpu g;
  g.vendor = GpuVendor::kAmd;
  g.name = "Radeon RX 6700 XT";
  g.architecture = "gfx1031";
  g.pci_address = "0000:03:00.0";
  snap.gpus.push_back(g);
  std::string facts =
      AllFacts("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", snap);
  EXPECT_NE(facts.find("on Windows HSA_OVERRIDE_GFX_VERSION has no effect"), std::string::npos) << facts;
  EXPECT_EQ(facts.find("the value that works"), std::string::npos) << facts;
  EXPECT_EQ(facts.find("bash"), std::string::npos) << facts;
}

TEST(ExplainFacts, OutOfMemoryNamesTheCardsMemoryAndTheAllocatorVariable) {
  Snapshot snap = RecordedSnapshot("rx6700xt-desktop");
  std::string facts = AllFacts(
      "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
      "11.98 "
      "GiB of which 1.23 GiB is free.",
      snap);
  EXPECT_NE(facts.find("GiB of memory"), std::string::npos) << facts;
  EXPECT_NE(facts.find("asked for 2.00 GiB"), std::string::npos) << facts;
  EXPECT_NE(facts.find("PYTORCH_HIP_ALLOC_CONF is not set"), std::string::npos) << facts;
  EXPECT_NE(facts.find("expandable_segments:True"), std::string::npos) << facts;
}

// knowledge-facts 7.3 #15 (github.com/pytorch/pytorch/issues/150733) on the H100 server.
TEST(ExplainFacts, NoKernelImageNamesComputeCapabilityAndWheel) {
  Snapshot snap = RecordedSnapshot("h100-sxm-server");
  std::string facts =
      AllFacts("RuntimeError: CUDA error: no kernel image is available for execution on the device", snap);
  EXPECT_NE(facts.find("sm_90"), std::string::npos) << facts;
  EXPECT_NE(facts.find("compute capability 9.0"), std::string::npos) << facts;
  EXPECT_NE(facts.find("cu12"), std::string::npos) << facts;
}

TEST(ExplainFacts, KfdPermissionShowsDeviceNodes) {
  std::string facts =
      AllFacts("Unable to open /dev/kfd read-write: Permission denied", RecordedSnapshot("rx6700xt-desktop"));
  EXPECT_NE(facts.find("/dev/kfd"), std::string::npos) << facts;
}

TEST(ExplainReport, NothingMatchedGivesTheHelpSummaryAndExitZero) {
  Snapshot snap = RecordedSnapshot("rx6700xt-desktop");
  LogScanner s(EmbeddedPrefilter(true));
  s.Feed("my model does not converge\n");
  s.Finish();
  ExplainReport r = BuildExplainReport(s.matches(), s.stats(), snap, EmbeddedDb());
  r.input_name = "the message";
  r.machine = "the test machine";
  EXPECT_EQ(ExplainExitCode(r), 0);
  std::string text = RenderExplainText(r, false);
  EXPECT_NE(text.find("No known problem matched"), std::string::npos) << text;
  EXPECT_NE(text.find("gfx1031"), std::string::npos) << text;
  EXPECT_NE(text.find("HSA_OVERRIDE_GFX_VERSION"), std::string::npos) << text;
  EXPECT_NE(text.find("Ubuntu"), std::string::npos) << text;
}

TEST(ExplainReport, ExitCodesFollowTheWorstSeverity) {
  Snapshot snap;
  auto code_for = [&](const std::string& text) {
    auto m = ScanEmbedded(text);
    return ExplainExitCode(BuildExplainReport(m, ScanStats{}, snap, EmbeddedDb()));
  };
  EXPECT_EQ(code_for("hipErrorNotReady"), 0);  // info only
  EXPECT_EQ(code_for("hipErrorPeerAccessUnsupported"), 1);
  EXPECT_EQ(code_for("hipErrorNotReady\nhipErrorNoBinaryForGpu"), 2);
}

TEST(ExplainReport, JsonIsValidEvenForBinaryCaptures) {
  Snapshot snap = RecordedSnapshot("rx6700xt-desktop");
  auto m = ScanText(EmbeddedCatalog(),
                    std::string("Cannot read /x/") + "\xff\xfe" +
                        "/TensileLibrary.dat: No such file or directory for GPU arch : gfx1031\n");
  ASSERT_EQ(m.size(), 1u);
  ExplainReport r = BuildExplainReport(m, ScanStats{}, snap, EmbeddedDb());
  auto doc = nlohmann::json::parse(RenderExplainJson(r));
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["exit_code"], 2);
  EXPECT_EQ(doc["matches"][0]["id"], "rocblas.tensile_library_missing");
  EXPECT_EQ(doc["matches"][0]["captures"]["gfx"], "gfx1031");
  EXPECT_FALSE(doc["matches"][0]["facts"].empty());
}

}  // namespace
}  // namespace gpudoctor
