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

INSTANTIATE_TEST_SUITE_P(Names, DistributionTable,
                         ::testing::Values(Known{"onnxruntime-gpu", "onnxruntime", "cuda"},
                                           Known{"onnxruntime-rocm", "onnxruntime", "rocm"},
                                           Known{"onnxruntime-migraphx", "onnxruntime", "migraphx"},
                                           Known{"onnxruntime-directml", "onnxruntime", "directml"},
                                           Known{"onnxruntime", "onnxruntime", "cpu"},
                                           Known{"tensorflow-rocm", "tensorflow", "rocm"},
                                           Known{"tensorflow", "tensorflow", ""},
                                           Known{"jax-cuda12-plugin", "jax-plugin", "cuda"},
                                           Known{"jax-cuda12-pjrt", "jax-plugin", "cuda"},
                                           Known{"jax-rocm7-plugin", "jax-plugin", "rocm"},
                                           Known{"torch-directml", "torch-directml", "directml"},
                                           Known{"bitsandbytes", "bitsandbytes", ""},
                                           Known{"rocm-sdk-core", "rocm-sdk", "rocm"},
                                           Known{"rocm-sdk-libraries-gfx110x-all", "rocm-sdk", "rocm"},
                                           Known{"rocm-sdk-device-gfx1151", "rocm-sdk", "rocm"},
                                           Known{"amd-torch-device-gfx1100", "rocm-sdk", "rocm"},
                                           Known{"numpy", "", ""}, Known{"jax-cuda12", "", ""}),
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
