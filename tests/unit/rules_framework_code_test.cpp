// Framework rules on the GPU code read from torch's libraries (TorchInstall::gpu_code, kernel folders),
// on torchvision / torchaudio against torch, and on what `check --live` saw. Table-driven: each case
// names the machine, what the binaries hold, and the finding that must (or must not) fire.
#include <gtest/gtest.h>

#include <set>

#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

void WithCode(Snapshot& s, std::vector<std::string> cubins, std::vector<std::string> ptx,
              std::vector<std::string> amd, const std::string& file) {
  GpuCodeLibrary lib;
  lib.path = s.python_envs.back().torch->location + "/lib/" + file;
  lib.cuda_cubins = std::move(cubins);
  lib.cuda_ptx = std::move(ptx);
  lib.amd = std::move(amd);
  s.python_envs.back().torch->gpu_code.push_back(lib);
}

void WithTensile(Snapshot& s, std::vector<std::string> gfx) {
  KernelLibraryFolder k;
  k.library = "rocblas";
  k.folder = s.python_envs.back().torch->location + "/lib/rocblas/library";
  k.gfx = std::move(gfx);
  k.files = static_cast<uint32_t>(k.gfx.size());
  s.python_envs.back().torch->kernel_libraries.push_back(k);
}

void WithFramework(Snapshot& s, const std::string& family, const std::string& version) {
  FrameworkInstall f;
  f.name = family;
  f.family = family;
  f.version = version;
  f.source = s.python_envs.back().site_packages + "/" + family + "-" + version + ".dist-info/METADATA";
  s.python_envs.back().frameworks.push_back(f);
}

const std::vector<std::string> kCu128 = {"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"};
const std::vector<std::string> kRocm62 = {"gfx900", "gfx906",  "gfx908", "gfx90a:xnack-",
                                          "gfx942", "gfx1030", "gfx1100"};

Snapshot Nvidia(uint32_t device, uint32_t major, uint32_t minor, const std::string& torch,
                const std::string& cuda, std::vector<std::string> cubins, std::vector<std::string> ptx) {
  Snapshot s = Linux();
  AddNvidia(s, device, major, minor);
  AddTorch(s, torch, cuda);
  WithCode(s, std::move(cubins), std::move(ptx), {}, "libtorch_cuda.so");
  return s;
}

Snapshot Amd(uint32_t device, uint32_t rev, const std::string& gfx, const std::string& torch,
             std::vector<std::string> targets, const char* override_value = nullptr) {
  Snapshot s = Linux();
  AddAmd(s, device, rev, gfx, 12);
  AddTorch(s, torch, "", "6.2.41133");
  WithCode(s, {}, {}, std::move(targets), "libtorch_hip.so");
  if (override_value) s.environment["HSA_OVERRIDE_GFX_VERSION"] = override_value;
  return s;
}

struct FrameworkCodeRuleCase {
  const char* name;
  Snapshot snap;
  const char* fires;
  Severity severity;
  const char* text;      // the bash fix, else the evidence, must contain it ("" for none)
  const char* must_not;  // "" for none
};

std::string Everything(const Finding& f) {
  std::string out = BashFix(f) + f.title + "\n";
  for (const auto& e : f.evidence) out += e + "\n";
  return out;
}

std::vector<FrameworkCodeRuleCase> FrameworkCodeRuleCases() {
  std::vector<FrameworkCodeRuleCase> c;
  // The case, from the binary: GTX 1080 (sm_61) with the cu128 libtorch_cuda.so -> cu126.
  c.push_back({"Gtx1080Cu128BinaryNeedsCu126",
               Nvidia(0x1B80, 6, 1, "2.7.1+cu128", "12.8", kCu128, {"compute_120"}),
               "framework.torch_no_kernels", Severity::kError, "whl/cu126", "framework.torch_ok"});
  c.push_back({"EvidenceNamesTheLibrary",
               Nvidia(0x1B80, 6, 1, "2.7.1+cu128", "12.8", kCu128, {"compute_120"}),
               "framework.torch_no_kernels", Severity::kError, "libtorch_cuda.so built for sm_75", ""});
  // The cu130 wheel carries sm_90 and sm_90a: an H100 runs the sm_90 cubin.
  c.push_back({"H100Cu130",
               Nvidia(0x2330, 9, 0, "2.11.0+cu130", "13.0", {"sm_75", "sm_90", "sm_90a", "sm_100"}, {}),
               "framework.torch_ok", Severity::kOk, "exact cubin in libtorch_cuda.so", ""});
  // RTX 4090 (8.9) runs the sm_86 cubin (same major, lower minor).
  c.push_back({"Rtx4090CompatibleCubin", Nvidia(0x2684, 8, 9, "2.7.1+cu128", "12.8", kCu128, {}),
               "framework.torch_ok", Severity::kOk, "compatible", ""});
  // A GPU of cc 10.3 does not run an sm_100a cubin (arch-specific), and there is no plain sm_100.
  c.push_back({"ArchSpecificCubinOnlyForItsOwnCc",
               Nvidia(0x2901, 10, 3, "2.11.0+cu130", "13.0", {"sm_90", "sm_100a"}, {}),
               "framework.torch_no_kernels", Severity::kError, "", "framework.torch_ok"});
  // Blackwell (12.0) with code up to sm_90 and compute_90 PTX: only JIT.
  c.push_back({"Rtx5090PtxOnly",
               Nvidia(0x2B85, 12, 0, "2.6.0+cu126", "12.6", {"sm_80", "sm_90"}, {"compute_90"}),
               "framework.torch_ptx_only", Severity::kWarning, "PTX is compiled by the driver", ""});
  // The AMD case: RX 6700 XT (gfx1031), libtorch_hip.so with gfx1030 but not gfx1031.
  c.push_back({"Rx6700XtBinaryNeedsOverride", Amd(0x73DF, 0xC1, "gfx1031", "2.5.1+rocm6.2", kRocm62),
               "framework.torch_no_kernels", Severity::kError, "export HSA_OVERRIDE_GFX_VERSION=10.3.0", ""});
  c.push_back({"Rx6700XtBinaryViaOverride", Amd(0x73DF, 0xC1, "gfx1031", "2.5.1+rocm6.2", kRocm62, "10.3.0"),
               "framework.torch_via_override", Severity::kOk, "", "framework.torch_no_kernels"});
  // Without gfx1030 in the code the override cannot help: a build that has the GPU instead.
  c.push_back({"Rx6700XtCodeWithoutSibling",
               Amd(0x73DF, 0xC1, "gfx1031", "2.5.1+rocm6.2", {"gfx90a", "gfx942"}),
               "framework.torch_no_kernels", Severity::kError, "pip uninstall -y torch", ""});
  {
    // A build the knowledge base does not record is judged from its code: no longer "unverified".
    Snapshot s = Amd(0x744C, 0xC8, "gfx1100", "2.14.0+rocm10.1.0", {"gfx1100", "gfx1101"});
    c.push_back({"TheRockBuildJudgedFromItsCode", s, "framework.torch_ok", Severity::kOk, "",
                 "framework.torch_unverified"});
  }
  {
    // LLVM's generic target runs on every processor of its family.
    Snapshot s = Amd(0x15BF, 0x06, "gfx1103", "2.14.0+rocm10.1.0", {"gfx11-generic"});
    c.push_back(
        {"GenericTargetCoversTheFamily", s, "framework.torch_ok", Severity::kOk, "gfx11-generic", ""});
  }
  {
    Snapshot s = Amd(0x744C, 0xC8, "gfx1100", "2.5.1+rocm6.2", kRocm62);
    WithTensile(s, {"gfx1030", "gfx90a"});
    c.push_back({"RocblasKernelsMissing", s, "framework.rocblas_kernels_missing", Severity::kError,
                 "found gfx90a gfx1030", "framework.torch_ok"});
  }
  {
    Snapshot s = Amd(0x73DF, 0xC1, "gfx1031", "2.5.1+rocm6.2", kRocm62, "10.3.0");
    WithTensile(s, {"gfx1030", "gfx1100"});
    c.push_back({"RocblasThroughTheOverride", s, "framework.torch_via_override", Severity::kOk,
                 "rocblas kernel files for gfx1030", "framework.rocblas_kernels_missing"});
  }
  {
    Snapshot s = Nvidia(0x2684, 8, 9, "2.7.1+cu128", "12.8", kCu128, {});
    WithFramework(s, "torchvision", "0.21.0+cu124");
    c.push_back({"TorchvisionOfAnotherRelease", s, "framework.torchvision_mismatch", Severity::kError,
                 "--force-reinstall --no-deps \"torchvision==0.22.*\" --index-url "
                 "https://download.pytorch.org/whl/cu128",
                 "framework.companions_ok"});
  }
  {
    Snapshot s = Nvidia(0x2684, 8, 9, "2.7.1+cu128", "12.8", kCu128, {});
    WithFramework(s, "torchvision", "0.22.1+cpu");
    c.push_back({"TorchvisionOfAnotherBuild", s, "framework.torchvision_mismatch", Severity::kError,
                 "another build: +cpu", ""});
  }
  {
    Snapshot s = Nvidia(0x2684, 8, 9, "2.13.0+cu130", "13.0", kCu128, {});
    WithFramework(s, "torchaudio", "2.11.0+cu130");
    WithFramework(s, "torchvision", "0.28.0+cu130");
    c.push_back({"TorchaudioOnTheStableAbi", s, "framework.companions_ok", Severity::kOk,
                 "torchaudio 2.11.0+cu130, torchvision 0.28.0+cu130", "framework.torchaudio_mismatch"});
  }
  {
    Snapshot s = Nvidia(0x2684, 8, 9, "2.7.1+cu128", "12.8", kCu128, {});
    WithFramework(s, "torchaudio", "2.5.1");
    c.push_back({"TorchaudioOfAnotherRelease", s, "framework.torchaudio_mismatch", Severity::kError,
                 "\"torchaudio==2.7.*\"", ""});
  }
  return c;
}

class FrameworkCodeRule : public ::testing::TestWithParam<FrameworkCodeRuleCase> {};

TEST_P(FrameworkCodeRule, FiresAsExpected) {
  const FrameworkCodeRuleCase& c = GetParam();
  auto fs = RunRules(c.snap);
  const Finding* f = FindId(fs, c.fires);
  ASSERT_NE(f, nullptr) << c.fires << " missing; got " << Ids(fs);
  EXPECT_EQ(f->severity, c.severity) << Ids(fs);
  if (*c.text) {
    EXPECT_NE(Everything(*f).find(c.text), std::string::npos) << Everything(*f);
  }
  if (*c.must_not) {
    EXPECT_FALSE(Has(fs, c.must_not)) << Ids(fs);
  }
  ASSERT_FALSE(f->evidence.empty());
  EXPECT_EQ(f->evidence.front().rfind("required ", 0), 0u) << f->evidence.front();
}

INSTANTIATE_TEST_SUITE_P(Cases, FrameworkCodeRule, ::testing::ValuesIn(FrameworkCodeRuleCases()),
                         [](const ::testing::TestParamInfo<FrameworkCodeRuleCase>& p) {
                           return std::string(p.param.name);
                         });

TEST(FrameworkCodeRules, OverrideIsNeverTheFixOnWindows) {
  Snapshot s = Amd(0x73DF, 0xC1, "gfx1031", "2.5.1+rocm6.2", kRocm62);
  s.os.family = OsFamily::kWindows;
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(BashFix(*f).find("HSA_OVERRIDE_GFX_VERSION"), std::string::npos) << BashFix(*f);
}

TEST(FrameworkCodeRules, RuntimeOverrideRuleReadsTheBinaryToo) {
  // The override is needed because the code (read from libtorch_hip.so) lacks gfx1031.
  auto fs = RunRules(Amd(0x73DF, 0xC1, "gfx1031", "2.14.0+rocm10.1.0", kRocm62));
  EXPECT_TRUE(Has(fs, "runtime.override_needed")) << Ids(fs);
}

struct CcCase {
  std::vector<std::string> cubins, ptx;
  const char* cc;
  CcSupport want;
};

TEST(FrameworkCodeRules, CodeSupportsCcTable) {
  const std::vector<CcCase> cases = {
      {{"sm_90"}, {}, "9.0", CcSupport::kExactCubin},
      {{"sm_90a"}, {}, "9.0", CcSupport::kExactCubin},
      {{"sm_86"}, {}, "8.9", CcSupport::kCompatibleCubin},
      {{"sm_80a"}, {}, "8.6", CcSupport::kNone},
      {{"sm_100f"}, {}, "10.3", CcSupport::kNone},
      {{"sm_120"}, {}, "12.1", CcSupport::kCompatibleCubin},
      {{"sm_75"}, {"compute_75"}, "8.0", CcSupport::kPtxJit},
      {{}, {"compute_90a"}, "10.0", CcSupport::kNone},
      {{"sm_75"}, {"compute_120"}, "6.1", CcSupport::kNone},
      {{"sm_61"}, {}, "7.0", CcSupport::kNone},
  };
  for (const auto& c : cases) {
    TorchView t;
    t.cubins = c.cubins;
    t.ptx = c.ptx;
    EXPECT_EQ(CodeSupportsCc(t, *Version::Parse(c.cc)), c.want)
        << ::testing::PrintToString(c.cubins) << " " << ::testing::PrintToString(c.ptx) << " on " << c.cc;
  }
}

TEST(TorchCompanions, KnowledgeBaseRows) {
  const TorchCompanion* c = Db().FindTorchCompanion(*Version::Parse("2.7.1"));
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->torchvision.size(), 1u);
  EXPECT_EQ(c->torchvision[0].ToString(), "0.22");
  EXPECT_EQ(c->torchaudio[0].ToString(), "2.7");
  // torchaudio 2.11 serves every later torch (stable ABI); torch 1.13 is Debian 12's.
  EXPECT_EQ(Db().FindTorchCompanion(*Version::Parse("2.13.0"))->torchaudio[0].ToString(), "2.11");
  EXPECT_EQ(Db().FindTorchCompanion(*Version::Parse("1.13.1"))->torchvision[0].ToString(), "0.14");
  EXPECT_EQ(Db().FindTorchCompanion(*Version::Parse("2.70")), nullptr);
  std::set<std::string> series;
  for (const auto& row : Db().torch_companions)
    EXPECT_TRUE(series.insert(row.torch.ToString()).second) << row.torch.ToString();
}

// ---- check --live results ---------------------------------------------------------------------

Snapshot LiveOn(bool gpu, PythonLiveRun run) {
  Snapshot s = Linux();
  if (gpu) AddNvidia(s, 0x2684, 8, 9);
  AddTorch(s, "2.7.1+cu128", "12.8");
  s.python_envs.back().interpreter = "/home/u/.venv/bin/python";
  run.interpreter = "/home/u/.venv/bin/python";
  s.python_envs.back().live = run;
  return s;
}

PythonLiveRun LiveRun(std::string status, std::string stage = "done") {
  PythonLiveRun r;
  r.status = std::move(status);
  r.stage = std::move(stage);
  r.torch_version = "2.7.1+cu128";
  r.elapsed_ms = 60000;
  return r;
}

TEST(FrameworkLiveRules, EachOutcome) {
  struct LiveCase {
    const char* name;
    Snapshot snap;
    const char* fires;
    Severity severity;
    const char* text;
  };
  std::vector<LiveCase> cases;
  {
    PythonLiveRun r = LiveRun("timeout", "is_available");
    r.stderr_tail = {"HIP: waiting for the device"};
    cases.push_back(
        {"hang", LiveOn(true, r), "framework.live_failed", Severity::kError, "stderr: HIP: waiting"});
  }
  {
    PythonLiveRun r = LiveRun("crashed", "matmul");
    r.signal = 11;
    cases.push_back({"crash", LiveOn(true, r), "framework.live_failed", Severity::kError, "signal 11"});
  }
  {
    PythonLiveRun r = LiveRun("ok", "import");
    r.error = "ImportError: libcudnn.so.9: cannot open shared object file";
    cases.push_back(
        {"import", LiveOn(true, r), "framework.live_import_error", Severity::kError, "libcudnn.so.9"});
  }
  {
    PythonLiveRun r = LiveRun("ok", "matmul");
    r.cuda_available = true;
    r.error = "RuntimeError: CUDA error: no kernel image is available for execution on the device";
    cases.push_back(
        {"gpu_error", LiveOn(true, r), "framework.live_gpu_error", Severity::kError, "no kernel image"});
  }
  {
    PythonLiveRun r = LiveRun("ok");
    r.cuda_available = false;
    cases.push_back({"no_gpu", LiveOn(true, r), "framework.live_no_gpu", Severity::kError, "found False"});
    cases.push_back(
        {"no_gpu_here", LiveOn(false, r), "framework.live_ok", Severity::kOk, "is_available() False"});
  }
  {
    PythonLiveRun r = LiveRun("ok");
    r.cuda_available = true;
    r.device_count = 1;
    r.device_names = {"NVIDIA GeForce RTX 4090"};
    r.matmul_max_abs_error = 4.5;
    r.matmul_max_abs_value = 150.0;
    cases.push_back({"wrong", LiveOn(true, r), "framework.live_matmul_wrong", Severity::kError, "found 4.5"});
    r.matmul_max_abs_error = 0.0003;
    cases.push_back({"ok", LiveOn(true, r), "framework.live_ok", Severity::kOk, "RTX 4090"});
  }
  for (const auto& c : cases) {
    auto fs = RunRules(c.snap);
    const Finding* f = FindId(fs, c.fires);
    ASSERT_NE(f, nullptr) << c.name << ": " << Ids(fs);
    EXPECT_EQ(f->severity, c.severity) << c.name;
    EXPECT_NE(Everything(*f).find(c.text), std::string::npos) << c.name << "\n" << Everything(*f);
  }
}

}  // namespace
}  // namespace gpudoctor
