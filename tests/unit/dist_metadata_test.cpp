// Installed-distribution metadata: METADATA / PKG-INFO headers, dist-info and egg-info folder names,
// PEP 503 names, and the table of distributions gpudoctor follows.
#include <gtest/gtest.h>

#include "probe/common/dist_metadata.h"
#include "probe/common/framework_scan.h"

namespace gpudoctor {
namespace {

TEST(DistMetadata, ReadsNameAndVersionFromTheHeader) {
  auto m = ParseDistMetadata(
      "Metadata-Version: 2.1\r\nName: onnxruntime-rocm\r\nVersion: 1.22.1\r\nSummary: ONNX Runtime\r\n\r\n"
      "Name: not-this\r\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name, "onnxruntime-rocm");
  EXPECT_EQ(m->version, "1.22.1");
}

TEST(DistMetadata, StopsAtTheBlankLine) {
  EXPECT_FALSE(ParseDistMetadata("Metadata-Version: 2.1\nName: torchvision\n\nVersion: 0.22.1\n"));
}

TEST(DistMetadata, RefusesImplausibleValues) {
  EXPECT_FALSE(ParseDistMetadata("Name: torch\nVersion: not a version\n"));
  EXPECT_FALSE(ParseDistMetadata("Name: \nVersion: 2.7.1\n"));
  EXPECT_FALSE(ParseDistMetadata(""));
  auto m = ParseDistMetadata("NAME: torch\n  continued\nversion:2.7.1+cu128\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->version, "2.7.1+cu128");
}

// The exact torch release a wheel pins (xformers, vllm): only an unconditional single `==` clause.
TEST(DistMetadata, ReadsAnExactTorchPin) {
  const std::string head =
      "Metadata-Version: 2.1\nName: xformers\nVersion: 0.0.28.post3\nRequires-Dist: numpy\n";
  auto pinned = ParseDistMetadata(head + "Requires-Dist: torch==2.5.1\n\nRequires-Dist: torch==9.9.9\n");
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->torch_pin, "2.5.1");
  EXPECT_EQ(pinned->version, "0.0.28.post3");
  // Older metadata writes the clause in parentheses; names compare PEP 503 normalized.
  EXPECT_EQ(ParseDistMetadata(head + "Requires-Dist: torch (==2.7.1)\n")->torch_pin, "2.7.1");
  EXPECT_EQ(ParseDistMetadata(head + "Requires-Dist: Torch == 2.6.0\n")->torch_pin, "2.6.0");
  // The pin may come before Name and Version.
  EXPECT_EQ(ParseDistMetadata("Requires-Dist: torch==2.4.0\nName: vllm\nVersion: 0.5.4\n")->torch_pin,
            "2.4.0");
  // Not one exact release: ranges, wildcards, conditions, other packages, arbitrary equality.
  for (const char* line :
       {"torch>=2.4", "torch==2.5.*", "torch==2.5.1,<3", "torch==2.5.1; extra == \"gpu\"",
        "torch==2.5.1 ; platform_system == \"Linux\"", "torchvision==0.20.1", "torch-tensorrt==2.5.0",
        "torch===2.5.1", "torch", "torch (==2.5.1", "torch[opt]==2.5.1"}) {
    auto m = ParseDistMetadata(head + "Requires-Dist: " + line + "\n");
    ASSERT_TRUE(m) << line;
    EXPECT_EQ(m->torch_pin, "") << line;
  }
  // The first exact pin counts.
  EXPECT_EQ(ParseDistMetadata(head + "Requires-Dist: torch>=2\nRequires-Dist: torch==2.5.1\n")->torch_pin,
            "2.5.1");
}

TEST(DistFolderName, DistInfoAndEggInfo) {
  auto a = ParseDistFolderName("torchvision-0.22.1+cu128.dist-info");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "torchvision");
  EXPECT_EQ(a->version, "0.22.1+cu128");
  auto b = ParseDistFolderName("rocm_sdk_core-7.2.0.dev0.dist-info");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name, "rocm_sdk_core");
  auto c = ParseDistFolderName("jax_cuda12_plugin-0.7.1-py3.12.egg-info");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->version, "0.7.1");
  EXPECT_FALSE(ParseDistFolderName("torch"));
  EXPECT_FALSE(ParseDistFolderName("noversion.dist-info"));
  EXPECT_FALSE(ParseDistFolderName("-1.0.dist-info"));
}

TEST(DistName, Pep503Normalisation) {
  EXPECT_EQ(NormalizeDistName("Rocm_SDK.core"), "rocm-sdk-core");
  EXPECT_EQ(NormalizeDistName("jax_cuda12__plugin"), "jax-cuda12-plugin");
  EXPECT_EQ(NormalizeDistName("torch"), "torch");
  EXPECT_EQ(NormalizeDistName("_rocm_sdk_core"), "rocm-sdk-core");  // the SDK wheels' import-folder spelling
}

struct Known {
  const char* name;
  const char* family;  // "" for a distribution not followed
  const char* backend;
};

class DistributionTable : public ::testing::TestWithParam<Known> {};

TEST_P(DistributionTable, Classifies) {
  auto k = ClassifyDistribution(GetParam().name);
  if (!*GetParam().family) {
    EXPECT_FALSE(k) << GetParam().name;
    return;
  }
  ASSERT_TRUE(k) << GetParam().name;
  EXPECT_EQ(k->family, GetParam().family);
  EXPECT_EQ(k->backend, GetParam().backend);
}

INSTANTIATE_TEST_SUITE_P(
    Names, DistributionTable,
    ::testing::Values(
        Known{"onnxruntime-gpu", "onnxruntime", "cuda"}, Known{"onnxruntime-rocm", "onnxruntime", "rocm"},
        Known{"onnxruntime-migraphx", "onnxruntime", "migraphx"},
        Known{"onnxruntime-directml", "onnxruntime", "directml"}, Known{"onnxruntime", "onnxruntime", "cpu"},
        Known{"tensorflow-rocm", "tensorflow", "rocm"}, Known{"tensorflow", "tensorflow", ""},
        Known{"jax-cuda12-plugin", "jax-plugin", "cuda"}, Known{"jax-cuda12-pjrt", "jax-plugin", "cuda"},
        Known{"jax-rocm7-plugin", "jax-plugin", "rocm"},
        Known{"torch-directml", "torch-directml", "directml"}, Known{"bitsandbytes", "bitsandbytes", ""},
        Known{"rocm-sdk-core", "rocm-sdk", "rocm"},
        Known{"rocm-sdk-libraries-gfx110x-all", "rocm-sdk", "rocm"},
        Known{"rocm-sdk-device-gfx1151", "rocm-sdk", "rocm"},
        Known{"amd-torch-device-gfx1100", "rocm-sdk", "rocm"}, Known{"xformers", "xformers", ""},
        Known{"flash-attn", "flash-attn", ""}, Known{"vllm", "vllm", ""}, Known{"triton", "triton", ""},
        Known{"pytorch-triton-rocm", "triton", "rocm"}, Known{"triton-windows", "triton", ""},
        Known{"deepspeed", "deepspeed", ""}, Known{"numpy", "", ""}, Known{"jax-cuda12", "", ""}),
    [](const ::testing::TestParamInfo<Known>& p) {
      std::string n = p.param.name;
      for (char& c : n)
        if (c == '-') c = '_';
      return n;
    });

TEST(RuntimeFiles, NamesOfTheVendorRuntimes) {
  EXPECT_EQ(RuntimeOfFile("libcudart.so.12"), "libcudart");
  EXPECT_EQ(RuntimeOfFile("cudart64_12.dll"), "libcudart");
  EXPECT_EQ(RuntimeOfFile("libamdhip64.so.6"), "libamdhip64");
  EXPECT_EQ(RuntimeOfFile("amdhip64_7.dll"), "libamdhip64");
  EXPECT_EQ(RuntimeOfFile("libhsa-runtime64.so.1"), "libhsa-runtime64");
  EXPECT_EQ(RuntimeOfFile("libcudnn.so.9"), "");
  EXPECT_EQ(RuntimeOfFile("cudart64_12.so"), "");
}

}  // namespace
}  // namespace gpudoctor
