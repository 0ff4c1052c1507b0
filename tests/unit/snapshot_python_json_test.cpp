// The Python part of the snapshot JSON: every field of an environment, its torch (GPU code, kernel
// folders, runtime), frameworks, GPU library folders and live result survives a round trip, and a
// snapshot written before these fields existed still reads.
#include <gtest/gtest.h>

#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

Snapshot WithPython() {
  Snapshot s;
  PythonEnv e;
  e.path = "/opt/torch/.venv";
  e.kind = "venv";
  e.python_version = "3.12";
  e.site_packages = "/opt/torch/.venv/lib/python3.12/site-packages";
  e.interpreter = "/opt/torch/.venv/bin/python3";
  e.python_version_source = "pyvenv.cfg";
  e.found_by = {"PATH", "VIRTUAL_ENV"};
  e.active = true;
  TorchInstall t;
  t.version = "2.11.0+cu130";
  t.cuda = "13.0";
  t.location = e.site_packages + "/torch";
  t.git_version = "abc";
  t.debug = false;
  t.arch_list = {"sm_90", "sm_100", "compute_120"};
  GpuCodeLibrary lib;
  lib.path = t.location + "/lib/libtorch_cuda.so";
  lib.cuda_cubins = {"sm_90", "sm_90a", "sm_100"};
  lib.cuda_ptx = {"compute_120"};
  lib.warnings = {"odd"};
  t.gpu_code.push_back(lib);
  t.kernel_libraries.push_back({"rocblas", "/x/rocblas/library", {"gfx1030"}, 3});
  t.runtime = RuntimeResolution{"libcudart", "pip", "/x/nvidia/cu13/lib/libcudart.so.13"};
  e.torch = t;
  FrameworkInstall fw;
  fw.name = "onnxruntime-gpu";
  fw.family = "onnxruntime";
  fw.version = "1.22.0";
  fw.backend = "cuda";
  fw.source = "/x/METADATA";
  fw.runtime = RuntimeResolution{"libcudart", "system", ""};
  e.frameworks.push_back(fw);
  e.gpu_libraries.push_back({"/x/torch/lib", "torch", {"libcudart.so.13"}});
  PythonLiveRun live;
  live.interpreter = e.interpreter;
  live.status = "ok";
  live.exit_code = 0;
  live.elapsed_ms = 4200;
  live.stage = "done";
  live.stderr_tail = {"warning: x"};
  live.cuda_available = true;
  live.device_count = 1;
  live.device_names = {"NVIDIA H200"};
  live.arch_list = {"sm_90"};
  live.matmul_max_abs_error = 0.000244140625;
  live.matmul_max_abs_value = 170.0;
  e.live = live;
  s.python_envs.push_back(e);
  return s;
}

TEST(SnapshotPythonJson, RoundTripKeepsEveryField) {
  Snapshot a = WithPython();
  std::string json = SnapshotToJson(a);
  auto b = SnapshotFromJson(json, "test");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(SnapshotToJson(*b), json);
  const PythonEnv& e = b->python_envs.at(0);
  ASSERT_TRUE(e.torch);
  EXPECT_EQ(e.torch->gpu_code.at(0).cuda_cubins.at(1), "sm_90a");
  EXPECT_EQ(e.torch->kernel_libraries.at(0).files, 3u);
  EXPECT_EQ(e.torch->runtime->origin, "pip");
  EXPECT_EQ(e.frameworks.at(0).runtime->origin, "system");
  ASSERT_TRUE(e.live);
  EXPECT_EQ(e.live->device_names.at(0), "NVIDIA H200");
  EXPECT_TRUE(e.active);
}

TEST(SnapshotPythonJson, OlderSnapshotsWithoutTheNewFieldsRead) {
  auto s = SnapshotFromJson(
      R"({"schema": "gpudoctor.snapshot", "schema_version": 1, "python_envs": [{"path": "/usr", "kind": "system",
          "python_version": "", "site_packages": "/usr/lib/python3/dist-packages",
          "torch": {"version": "2.5.1+cpu", "cuda": "", "hip": "", "location": "/usr/lib/python3/dist-packages/torch"}}]})",
      "old.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(s->python_envs.at(0).torch);
  EXPECT_TRUE(s->python_envs.at(0).torch->gpu_code.empty());
  EXPECT_FALSE(s->python_envs.at(0).live);
  EXPECT_FALSE(s->python_envs.at(0).active);
}

// Issue 30: the project pins survive a round trip; an environment without a project writes no key, so
// snapshots (and goldens) of machines without pin files are unchanged.
TEST(SnapshotPythonJson, ProjectPinsRoundTripAndAreAbsentWithoutAProject) {
  Snapshot a = WithPython();
  EXPECT_EQ(SnapshotToJson(a).find("\"project\""), std::string::npos);
  PythonProject p{"/opt/torch", "uv", {"/opt/torch/pyproject.toml", "/opt/torch/uv.lock"}, {}};
  p.pins.push_back({"/opt/torch/uv.lock", 120, "version = \"2.7.1+cpu\"", "torch", "==2.7.1+cpu",
                    "sys_platform == 'linux'", "https://download.pytorch.org/whl/cpu"});
  a.python_envs.at(0).project = p;
  std::string json = SnapshotToJson(a);
  auto b = SnapshotFromJson(json, "test");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(SnapshotToJson(*b), json);
  ASSERT_TRUE(b->python_envs.at(0).project);
  const PythonProject& q = *b->python_envs.at(0).project;
  EXPECT_EQ(q.manager, "uv");
  EXPECT_EQ(q.files.size(), 2u);
  ASSERT_EQ(q.pins.size(), 1u);
  EXPECT_EQ(q.pins[0].line, 120u);
  EXPECT_EQ(q.pins[0].marker, "sys_platform == 'linux'");
  EXPECT_EQ(q.pins[0].index_url, "https://download.pytorch.org/whl/cpu");
  auto bad = SnapshotFromJson(
      R"({"schema": "gpudoctor.snapshot/2", "python_envs": [{"project": {"pins": [{"line": "5"}]}}]})",
      "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("line"), std::string::npos) << bad.error().message;
}

TEST(SnapshotPythonJson, WrongTypesAreNamed) {
  auto s = SnapshotFromJson(
      R"({"schema": "gpudoctor.snapshot", "python_envs": [{"torch": {"gpu_code": [{"cuda_cubins": [90]}]}}]})",
      "bad.json");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("cuda_cubins"), std::string::npos) << s.error().message;
}

}  // namespace
}  // namespace gpudoctor
