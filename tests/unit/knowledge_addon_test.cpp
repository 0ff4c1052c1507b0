// The add-on sections of the knowledge base (data/addon_libraries.toml): what the data says about the
// add-ons a user meets most (xformers' torch pins, onnxruntime-gpu's CUDA per release, the GPU floors),
// the lookups the rules use, and the loader's errors for a broken entry.
#include <gtest/gtest.h>

#include <string>

#include "knowledge/knowledge_db.h"
#include "knowledge/knowledge_loader.h"
#include "knowledge_test_util.h"
#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using testing::V;
using testing_rules::Db;

// The errors of the built-in knowledge base with addon_libraries.toml replaced by `text`, one a line.
std::string ErrorsWithAddonFile(const std::string& text) {
  std::string out;
  for (const KnowledgeError& e :
       ParseKnowledge(OverlayKnowledgeTexts({{"addon_libraries.toml", text}})).errors)
    out += e.ToString() + "\n";
  return out;
}

const char* const kLibrary = R"(
[[addon_library]]
name = "xformers"
distributions = ["xformers"]
pins_torch = true
checked = 2026-12-05
source = "https://github.com/facebookresearch/xformers/blob/main/CHANGELOG.md"
)";

TEST(KnowledgeAddons, DistributionsFindTheirAddonInAnySpelling) {
  ASSERT_NE(Db().FindAddon("onnxruntime_gpu"), nullptr);
  EXPECT_EQ(Db().FindAddon("onnxruntime_gpu")->name, "onnxruntime-gpu");
  EXPECT_EQ(Db().FindAddon("Flash_Attn")->name, "flash-attn");
  EXPECT_EQ(Db().FindAddon("jaxlib")->name, "jax");
  EXPECT_EQ(Db().FindAddon("pytorch-triton-rocm")->name, "triton");
  EXPECT_EQ(Db().FindAddon("onnxruntime"), nullptr);  // the CPU package is no add-on: it shadows one
  EXPECT_EQ(Db().FindAddon("torchvision"), nullptr);
  const AddonLibrary* xformers = Db().FindAddon("xformers");
  ASSERT_NE(xformers, nullptr);
  EXPECT_TRUE(xformers->pins_torch);
  EXPECT_TRUE(xformers->torch_index);
  EXPECT_TRUE(Db().FindAddon("vllm")->pins_torch);
  EXPECT_FALSE(Db().FindAddon("vllm")->torch_index);
  EXPECT_FALSE(Db().FindAddon("flash-attn")->pins_torch);
}

// xformers' wheels.yml per tag: 0.0.28.post3 was built for 2.5.1; for torch 2.6.0 the newest release is
// 0.0.29.post3, for 2.5.1 it is 0.0.29.post1 (the last row for that torch wins).
TEST(KnowledgeAddons, XformersReleaseForEachTorch) {
  const AddonTorchBuild* b = Db().AddonBuildForTorch("xformers", V("2.6.0"));
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->version, "0.0.29.post3");
  ASSERT_NE(Db().AddonBuildForTorch("xformers", V("2.5.1")), nullptr);
  EXPECT_EQ(Db().AddonBuildForTorch("xformers", V("2.5.1"))->version, "0.0.29.post1");
  EXPECT_EQ(Db().AddonBuildForTorch("xformers", V("2.4.1"))->version, "0.0.28.post1");
  EXPECT_EQ(Db().AddonBuildForTorch("xformers", V("2.5.2")), nullptr);
  EXPECT_EQ(Db().AddonBuildForTorch("vllm", V("2.6.0")), nullptr);
}

// The ONNX Runtime CUDA EP requirements: PyPI's onnxruntime-gpu is CUDA 11 through 1.18 and CUDA 12 from
// 1.19 (the default changed in 1.19, not 1.18: 1.18's CUDA 12 build was on a separate index).
TEST(KnowledgeAddons, OnnxruntimeGpuCudaPerRelease) {
  const AddonCudaBuild* b117 = Db().AddonCudaBuildOf("onnxruntime-gpu", V("1.17.1"));
  ASSERT_NE(b117, nullptr);
  EXPECT_EQ(b117->cuda.major(), 11u);
  EXPECT_EQ(b117->cudnn, V("8"));
  EXPECT_EQ(Db().AddonCudaBuildOf("onnxruntime-gpu", V("1.18.1"))->cuda.major(), 11u);
  const AddonCudaBuild* b119 = Db().AddonCudaBuildOf("onnxruntime-gpu", V("1.19.0"));
  ASSERT_NE(b119, nullptr);
  EXPECT_EQ(b119->cuda.major(), 12u);
  EXPECT_EQ(b119->cudnn, V("9"));
  EXPECT_EQ(Db().AddonCudaBuildOf("onnxruntime-gpu", V("1.14.1"))->cuda, V("11.6"));
  EXPECT_EQ(Db().AddonCudaBuildOf("onnxruntime-gpu", V("1.12.0")), nullptr);
  EXPECT_EQ(Db().AddonCudaBuildOf("onnxruntime-gpu", V("1.27.0")), nullptr);  // not recorded
  const AddonCudaBuild* newest12 = Db().NewestAddonCudaBuild("onnxruntime-gpu", 12);
  ASSERT_NE(newest12, nullptr);
  EXPECT_EQ(newest12->from, V("1.19"));
  EXPECT_EQ(Db().NewestAddonCudaBuild("onnxruntime-gpu", 11)->from, V("1.15"));
  EXPECT_EQ(Db().NewestAddonCudaBuild("onnxruntime-gpu", 13), nullptr);
}

TEST(KnowledgeAddons, GpuFloorsApplyFromTheirRelease) {
  auto flash2 = Db().AddonGpuFloorsFor("flash-attn", V("2.7.4"));
  ASSERT_EQ(flash2.size(), 1u);
  EXPECT_EQ(flash2.front()->cc, V("8.0"));
  EXPECT_EQ(flash2.front()->severity, Severity::kWarning);
  EXPECT_TRUE(Db().AddonGpuFloorsFor("flash-attn", V("1.0.9")).empty());  // FlashAttention 1 ran on Turing
  EXPECT_TRUE(Db().AddonGpuFloorsFor("flash-attn", std::nullopt).empty());
  auto old_xformers = Db().AddonGpuFloorsFor("xformers", V("0.0.28"));
  ASSERT_EQ(old_xformers.size(), 1u);
  EXPECT_EQ(old_xformers.front()->severity, Severity::kInfo);
  EXPECT_EQ(Db().AddonGpuFloorsFor("xformers", V("0.0.31")).size(), 2u);
  ASSERT_EQ(Db().AddonGpuFloorsFor("triton", V("3.2.0")).size(), 1u);
  EXPECT_EQ(Db().AddonGpuFloorsFor("triton", V("3.2.0")).front()->cc, V("7.0"));
}

TEST(KnowledgeAddons, WhatProvesAGpuBuild) {
  const AddonLibrary* bnb = Db().FindAddon("bitsandbytes");
  ASSERT_NE(bnb, nullptr);
  ASSERT_TRUE(bnb->cpu_only.has_value());
  EXPECT_EQ(*bnb->cpu_only, Severity::kError);
  EXPECT_EQ(bnb->install_cuda, "bitsandbytes");
  const AddonLibrary* jax = Db().FindAddon("jax");
  ASSERT_TRUE(jax->cpu_only.has_value());
  EXPECT_EQ(*jax->cpu_only, Severity::kWarning);
  EXPECT_EQ(jax->install_cuda, "jax[cuda{cuda}]");
  EXPECT_EQ(jax->install_rocm, "jax[rocm7-local]");
  EXPECT_FALSE(Db().FindAddon("xformers")->cpu_only.has_value());
}

TEST(KnowledgeAddons, EveryRowIsSourcedAndChecked) {
  size_t rows = 0;
  Db().VisitProvenance([&](std::string_view section, const Provenance& p) {
    if (section.substr(0, 6) != "addon_") return;
    ++rows;
    EXPECT_FALSE(p.sources.empty()) << section << " at line " << p.origin.line;
    EXPECT_EQ(p.checked, "2026-12-05") << section << " at line " << p.origin.line;
    EXPECT_EQ(p.origin.file, "addon_libraries.toml");
    if (!p.confirmed) {
      EXPECT_FALSE(p.note.empty()) << section << " at line " << p.origin.line;
    }
  });
  EXPECT_GE(rows, 30u);
}

TEST(KnowledgeAddonErrors, ADistributionNameMustBeNormalized) {
  std::string text = kLibrary;
  text.replace(text.find("[\"xformers\"]"), 12, "[\"XFormers\"]");
  EXPECT_NE(
      ErrorsWithAddonFile(text).find("distributions entry 'XFormers' must be written normalized: 'xformers'"),
      std::string::npos)
      << ErrorsWithAddonFile(text);
}

TEST(KnowledgeAddonErrors, RowsMustNameAKnownAddonAndTorch) {
  std::string text = std::string(kLibrary) + R"(
[[addon_torch_build]]
addon = "xformers"
version = "0.0.99"
torch = "1.5.0"
checked = 2026-12-05
source = "https://example.org"

[[addon_gpu_floor]]
addon = "xformer"
cc = "8.0"
severity = "warning"
fallback = "SDPA"
checked = 2026-12-05
source = "https://example.org"
)";
  std::string errors = ErrorsWithAddonFile(text);
  EXPECT_NE(errors.find("addon_libraries.toml:9: torch 1.5.0 has no [[torch_release]]"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("addon_libraries.toml:16: add-on 'xformer' has no [[addon_library]]"),
            std::string::npos)
      << errors;
}

TEST(KnowledgeAddonErrors, CudaRangesOfOneAddonMustNotOverlap) {
  std::string text = std::string(kLibrary) + R"(
[[addon_cuda_build]]
addon = "xformers"
from = "1.15"
until = "1.19"
cuda = "11.8"
checked = 2026-12-05
source = "https://example.org"

[[addon_cuda_build]]
addon = "xformers"
from = "1.18"
cuda = "12"
checked = 2026-12-05
source = "https://example.org"
)";
  std::string errors = ErrorsWithAddonFile(text);
  EXPECT_NE(errors.find("release 1.18 of xformers is in the range at addon_libraries.toml:9 too"),
            std::string::npos)
      << errors;
}

TEST(KnowledgeAddonErrors, AJudgedCpuBuildNeedsItsProofAndItsFix) {
  std::string text = std::string(kLibrary);
  text.replace(text.find("pins_torch = true"), 17, "cpu_only = \"fatal\"");
  EXPECT_NE(ErrorsWithAddonFile(text).find("'cpu_only'"), std::string::npos) << ErrorsWithAddonFile(text);
  text = std::string(kLibrary);
  text.replace(text.find("pins_torch = true"), 17, "cpu_only = \"error\"\ngpu_platforms = [\"linux\"]");
  std::string errors = ErrorsWithAddonFile(text);
  EXPECT_NE(errors.find("cpu_only needs what proves a GPU build"), std::string::npos) << errors;
  EXPECT_NE(errors.find("cpu_only needs the GPU build's requirement"), std::string::npos) << errors;
}

TEST(KnowledgeAddonErrors, AFloorIsAComputeCapabilityWithAFallback) {
  std::string text = std::string(kLibrary) + R"(
[[addon_gpu_floor]]
addon = "xformers"
cc = "8"
severity = "error"
checked = 2026-12-05
source = "https://example.org"
)";
  std::string errors = ErrorsWithAddonFile(text);
  EXPECT_NE(errors.find("cc must be a compute capability"), std::string::npos) << errors;
  EXPECT_NE(errors.find("severity of a GPU floor is info or warning"), std::string::npos) << errors;
  EXPECT_NE(errors.find("fallback"), std::string::npos) << errors;
}

TEST(KnowledgeVersionLeading, TakesTheReleaseNumberAPackageVersionStartsWith) {
  EXPECT_EQ(Version::ParseLeading("0.22.1+cu128"), V("0.22.1"));
  EXPECT_EQ(Version::ParseLeading("2.8.0a0+gitfc14c65"), V("2.8.0"));
  EXPECT_EQ(Version::ParseLeading("0.0.28.post3"), V("0.0.28"));
  EXPECT_EQ(Version::ParseLeading("1.17.1"), V("1.17.1"));
  EXPECT_FALSE(Version::ParseLeading("dev").has_value());
  EXPECT_FALSE(Version::ParseLeading("").has_value());
  EXPECT_FALSE(Version::ParseLeading("1.2.3.4.5").has_value());
}

}  // namespace
}  // namespace gpudoctor
