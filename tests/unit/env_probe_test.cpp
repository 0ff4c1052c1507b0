// Tests of the environment probe: only the variables in its table are kept, NCCL_*/RCCL_* by name only.
#include "probe/common/env_probe.h"

#include <gtest/gtest.h>

#include "probe_test_sysroot.h"

namespace gpudoctor {
namespace {

using testing::ProbeSysroot;

TEST(EnvProbe, KeepsOnlyTheVariablesThatMatter) {
  ProbeSysroot root;
  root.env = testing::MakeEnv({
      {"HIP_VISIBLE_DEVICES", "0,1"},
      {"ROCR_VISIBLE_DEVICES", "GPU-abc"},
      {"CUDA_VISIBLE_DEVICES", "1"},
      {"GPU_DEVICE_ORDINAL", "0"},
      {"HSA_OVERRIDE_GFX_VERSION", "10.3.0"},
      {"HSA_OVERRIDE_GFX_VERSION_1", "11.0.0"},
      {"HSA_OVERRIDE_GFX_VERSION_12", "11.0.0"},
      {"HSA_OVERRIDE_GFX_VERSION_X", "11.0.0"},
      {"HSA_ENABLE_SDMA", "0"},
      {"HSA_XNACK", "1"},
      {"HSA_ENABLE_DXG_DETECTION", "1"},
      {"ROCM_PATH", "/opt/rocm"},
      {"ROCM_HOME", "/opt/rocm"},
      {"HIP_PATH", "/opt/rocm"},
      {"CUDA_PATH", "/usr/local/cuda"},
      {"CUDA_HOME", "/usr/local/cuda"},
      {"LD_LIBRARY_PATH", "/opt/rocm/lib"},
      {"PYTORCH_ALLOC_CONF", "expandable_segments:True"},
      {"PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True"},
      {"PYTORCH_HIP_ALLOC_CONF", "expandable_segments:True"},
      {"PYTORCH_ROCM_ARCH", "gfx1100"},
      {"TORCH_CUDA_ARCH_LIST", "9.0"},
      {"AMD_SERIALIZE_KERNEL", "3"},
      {"CUDA_LAUNCH_BLOCKING", "1"},
      {"NCCL_SOCKET_IFNAME", "eth0"},
      {"RCCL_MSCCL_ENABLE", "0"},
      {"NCCL_", "bare prefix"},
      {"VIRTUAL_ENV", "/home/alice/.venv"},
      {"CONDA_PREFIX", "/opt/conda"},
      {"PATH", "/usr/bin"},
      {"HOME", "/home/alice"},
      {"AWS_SECRET_ACCESS_KEY", "secret"},
      {"cuda_visible_devices", "lowercase is another variable"},
  });
  Snapshot snap = root.Run(ProbeEnvironmentVariables);
  const auto& e = snap.environment;
  EXPECT_EQ(e.size(), 27u);
  EXPECT_EQ(e.at("HIP_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(e.at("ROCR_VISIBLE_DEVICES"), "GPU-abc");
  EXPECT_EQ(e.at("HSA_OVERRIDE_GFX_VERSION"), "10.3.0");
  EXPECT_EQ(e.at("HSA_OVERRIDE_GFX_VERSION_1"), "11.0.0");
  EXPECT_EQ(e.at("HSA_OVERRIDE_GFX_VERSION_12"), "11.0.0");
  EXPECT_EQ(e.count("HSA_OVERRIDE_GFX_VERSION_X"), 0u);
  EXPECT_EQ(e.at("LD_LIBRARY_PATH"), "/opt/rocm/lib");
  EXPECT_EQ(e.at("PYTORCH_HIP_ALLOC_CONF"), "expandable_segments:True");
  EXPECT_EQ(e.at("NCCL_SOCKET_IFNAME"), kEnvValueNotRecorded);
  EXPECT_EQ(e.at("RCCL_MSCCL_ENABLE"), kEnvValueNotRecorded);
  EXPECT_EQ(e.count("NCCL_"), 0u);
  EXPECT_EQ(e.count("PATH"), 0u);
  EXPECT_EQ(e.count("HOME"), 0u);
  EXPECT_EQ(e.count("AWS_SECRET_ACCESS_KEY"), 0u);
  EXPECT_EQ(e.count("cuda_visible_devices"), 0u);
  EXPECT_EQ(e.at("CONDA_PREFIX"), "/opt/conda");
  EXPECT_TRUE(snap.warnings.empty());
  EXPECT_FALSE(snap.looked_at.empty());
}

TEST(EnvProbe, EmptyEnvironmentGivesNothing) {
  ProbeSysroot root;
  Snapshot snap = root.Run(ProbeEnvironmentVariables);
  EXPECT_TRUE(snap.environment.empty());
  EXPECT_TRUE(snap.warnings.empty());
}

TEST(EnvProbe, EmptyValuesAreKeptAsSet) {
  ProbeSysroot root;
  root.env = testing::MakeEnv({{"CUDA_VISIBLE_DEVICES", ""}});
  Snapshot snap = root.Run(ProbeEnvironmentVariables);
  ASSERT_EQ(snap.environment.count("CUDA_VISIBLE_DEVICES"), 1u);  // "" hides every GPU: it matters
  EXPECT_EQ(snap.environment.at("CUDA_VISIBLE_DEVICES"), "");
}

}  // namespace
}  // namespace gpudoctor
