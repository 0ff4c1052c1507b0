// The explain catalog (data/explain/*.toml) as a whole: it loads, every pattern compiles with a usable
// literal, and every sample message — each a real message from the thread or header named in the
// entry's `source` — is claimed by its own entry and by no other. One table-driven test walks them all.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "explain/explain_catalog.h"
#include "explain/explain_pattern.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_db.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {
namespace {

TEST(ExplainCatalog, EmbeddedCatalogLoadsWithoutErrors) {
  auto load = ParseExplainCatalog(EmbeddedExplainTexts());
  for (const auto& e : load.errors) ADD_FAILURE() << e.ToString();
  EXPECT_GE(load.catalog.entries.size(), 60u);
  std::map<std::string, int> per_area;
  for (const auto& e : load.catalog.entries) ++per_area[e.area];
  for (const char* area :
       {"hip", "cuda", "hsa", "pytorch", "rocm_libs", "nccl", "kernel_log", "windows", "pip"})
    EXPECT_GE(per_area[area], 5) << area;
  std::string counts;
  for (const auto& [area, n] : per_area) counts += area + "=" + std::to_string(n) + " ";
  std::cout << "[ explain ] entries per area: " << counts << "\n";
}

TEST(ExplainCatalog, EveryPatternCompilesWithALiteral) {
  for (const auto& e : EmbeddedCatalog().entries) {
    // A refinement (docs/explain.md, context rules) has evidence patterns instead of its own.
    EXPECT_NE(e.patterns.empty(), e.refines.empty()) << e.id;
    EXPECT_EQ(e.context.empty(), e.refines.empty()) << e.id;
    for (const auto& p : e.context) {
      EXPECT_NE(p.regex, nullptr) << e.id << ": " << p.text;
      EXPECT_GE(p.literal.size(), kMinLiteralLength) << e.id << ": " << p.text;
    }
    for (const auto& p : e.patterns) {
      EXPECT_NE(p.regex, nullptr) << e.id << ": " << p.text;
      EXPECT_GE(p.literal.size(), kMinLiteralLength) << e.id << ": " << p.text;
    }
    EXPECT_FALSE(e.sources.empty()) << e.id;
    EXPECT_FALSE(e.samples.empty()) << e.id;
  }
}

// The table: every sample of every entry must be explained by that entry alone.
TEST(ExplainCatalog, EverySampleIsClaimedByItsOwnEntry) {
  std::map<std::string, std::string> owner;  // sample -> entry id
  size_t checked = 0;
  for (const auto& e : EmbeddedCatalog().entries) {
    for (const std::string& sample : e.samples) {
      auto [it, fresh] = owner.emplace(sample, e.id);
      EXPECT_TRUE(fresh) << "sample listed by both " << it->second << " and " << e.id << ": " << sample;
      auto matches = ScanEmbedded(sample);
      std::string ids;  // every match, so one run names every sample that needs a look
      for (const ExplainMatch& m : matches)
        ids += " " + m.entry->id + (m.captures.empty() ? "" : "(captures differ)");
      EXPECT_EQ(matches.size(), 1u) << e.id << " (source " << e.sources.front() << "): " << sample
                                    << "\n  matched by:" << ids;
      if (matches.size() != 1) continue;
      EXPECT_EQ(matches[0].entry->id, e.id)
          << "sample of " << e.id << " claimed by " << matches[0].entry->id << ": " << sample;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200u);
}

// Audit 2026-12-05: amdhip64_7.dll ships with the Adrenalin driver, so its absence first means a driver
// older than the ROCm 7 era: the fix starts with the driver; the HIP SDK is only for building HIP code.
TEST(ExplainCatalog, MissingAmdhip64_7IsAnOldDriverFirst) {
  auto m = ScanEmbedded("cusparse.dll explicitly requires amdhip64_7.dll");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].entry->id, "windows.hip_dll_missing");
  const std::string& fix = m[0].entry->fix;
  EXPECT_EQ(fix.find("Update the AMD Adrenalin driver first"), 0u) << fix;
  EXPECT_NE(fix.find("HIP SDK only to build"), std::string::npos) << fix;
}

// ROCm/HIP and ROCm/ROCR-Runtime moved into ROCm/rocm-systems (projects/hip, projects/rocr-runtime): the
// catalog cites their headers there (an issue keeps the address it was filed under).
TEST(ExplainCatalog, MovedRepositoriesAreCitedAtTheirNewHome) {
  size_t moved = 0;
  for (const auto& e : EmbeddedCatalog().entries) {
    for (const std::string& url : e.sources) {
      EXPECT_EQ(url.find("github.com/ROCm/HIP/blob/"), std::string::npos) << e.id << ": " << url;
      EXPECT_EQ(url.find("github.com/ROCm/ROCR-Runtime/blob/"), std::string::npos) << e.id << ": " << url;
      if (url.find("github.com/ROCm/rocm-systems/blob/develop/projects/") != std::string::npos) ++moved;
    }
  }
  EXPECT_GE(moved, 23u);
}

// No sample is ambiguous: no other entry of the same priority matches it too. Each entry is tried alone
// (with one prefilter of its own) on the samples of every other entry of its priority.
TEST(ExplainCatalog, NoTwoEntriesOfEqualPriorityClaimTheSameSample) {
  for (const auto& other : EmbeddedCatalog().entries) {
    ExplainCatalog alone;
    alone.entries.push_back(other);
    auto prefilter = std::make_shared<const ExplainPrefilter>(alone, false);
    for (const auto& e : EmbeddedCatalog().entries) {
      if (&other == &e || other.priority != e.priority) continue;
      for (const std::string& sample : e.samples)
        EXPECT_TRUE(ScanText(prefilter, sample).empty())
            << "sample of " << e.id << " is also matched by " << other.id << ": " << sample;
    }
  }
}

// Every hipError_t name of hip_runtime_api.h (knowledge-facts 7.1) is explained.
TEST(ExplainCatalog, EveryHipErrorNameIsMatched) {
  const char* names[] = {"hipErrorInvalidValue",
                         "hipErrorOutOfMemory",
                         "hipErrorMemoryAllocation",
                         "hipErrorNotInitialized",
                         "hipErrorInitializationError",
                         "hipErrorDeinitialized",
                         "hipErrorProfilerDisabled",
                         "hipErrorProfilerNotInitialized",
                         "hipErrorProfilerAlreadyStarted",
                         "hipErrorProfilerAlreadyStopped",
                         "hipErrorInvalidConfiguration",
                         "hipErrorInvalidPitchValue",
                         "hipErrorInvalidSymbol",
                         "hipErrorInvalidDevicePointer",
                         "hipErrorInvalidMemcpyDirection",
                         "hipErrorInsufficientDriver",
                         "hipErrorMissingConfiguration",
                         "hipErrorPriorLaunchFailure",
                         "hipErrorInvalidDeviceFunction",
                         "hipErrorNoDevice",
                         "hipErrorInvalidDevice",
                         "hipErrorInvalidImage",
                         "hipErrorInvalidContext",
                         "hipErrorContextAlreadyCurrent",
                         "hipErrorMapFailed",
                         "hipErrorMapBufferObjectFailed",
                         "hipErrorUnmapFailed",
                         "hipErrorArrayIsMapped",
                         "hipErrorAlreadyMapped",
                         "hipErrorNoBinaryForGpu",
                         "hipErrorAlreadyAcquired",
                         "hipErrorNotMapped",
                         "hipErrorNotMappedAsArray",
                         "hipErrorNotMappedAsPointer",
                         "hipErrorECCNotCorrectable",
                         "hipErrorUnsupportedLimit",
                         "hipErrorContextAlreadyInUse",
                         "hipErrorPeerAccessUnsupported",
                         "hipErrorInvalidKernelFile",
                         "hipErrorInvalidGraphicsContext",
                         "hipErrorInvalidSource",
                         "hipErrorFileNotFound",
                         "hipErrorSharedObjectSymbolNotFound",
                         "hipErrorSharedObjectInitFailed",
                         "hipErrorOperatingSystem",
                         "hipErrorInvalidHandle",
                         "hipErrorInvalidResourceHandle",
                         "hipErrorIllegalState",
                         "hipErrorNotFound",
                         "hipErrorNotReady",
                         "hipErrorIllegalAddress",
                         "hipErrorLaunchOutOfResources",
                         "hipErrorLaunchTimeOut",
                         "hipErrorPeerAccessAlreadyEnabled",
                         "hipErrorPeerAccessNotEnabled",
                         "hipErrorSetOnActiveProcess",
                         "hipErrorContextIsDestroyed",
                         "hipErrorAssert",
                         "hipErrorHostMemoryAlreadyRegistered",
                         "hipErrorHostMemoryNotRegistered",
                         "hipErrorLaunchFailure",
                         "hipErrorCooperativeLaunchTooLarge",
                         "hipErrorNotSupported",
                         "hipErrorStreamCaptureUnsupported",
                         "hipErrorStreamCaptureInvalidated",
                         "hipErrorStreamCaptureMerge",
                         "hipErrorStreamCaptureUnmatched",
                         "hipErrorStreamCaptureUnjoined",
                         "hipErrorStreamCaptureIsolation",
                         "hipErrorStreamCaptureImplicit",
                         "hipErrorCapturedEvent",
                         "hipErrorStreamCaptureWrongThread",
                         "hipErrorGraphExecUpdateFailure",
                         "hipErrorInvalidChannelDescriptor",
                         "hipErrorInvalidTexture",
                         "hipErrorUnknown",
                         "hipErrorRuntimeMemory",
                         "hipErrorRuntimeOther"};
  for (const char* name : names) {
    auto m = ScanEmbedded(std::string("hipMalloc returned ") + name + " at step 3");
    ASSERT_EQ(m.size(), 1u) << name;
    EXPECT_EQ(m[0].entry->area, "hip") << name;
  }
}

// The CUDA names of knowledge-facts 7.2, runtime and driver spelling.
TEST(ExplainCatalog, CommonCudaNamesAreMatched) {
  const char* names[] = {"cudaErrorInvalidValue",
                         "CUDA_ERROR_INVALID_VALUE",
                         "cudaErrorMemoryAllocation",
                         "CUDA_ERROR_OUT_OF_MEMORY",
                         "cudaErrorInitializationError",
                         "CUDA_ERROR_NOT_INITIALIZED",
                         "cudaErrorCudartUnloading",
                         "CUDA_ERROR_DEINITIALIZED",
                         "cudaErrorStubLibrary",
                         "CUDA_ERROR_STUB_LIBRARY",
                         "cudaErrorInsufficientDriver",
                         "cudaErrorCallRequiresNewerDriver",
                         "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER",
                         "cudaErrorDevicesUnavailable",
                         "CUDA_ERROR_DEVICE_UNAVAILABLE",
                         "cudaErrorInvalidDeviceFunction",
                         "cudaErrorNoDevice",
                         "CUDA_ERROR_NO_DEVICE",
                         "cudaErrorInvalidDevice",
                         "CUDA_ERROR_INVALID_DEVICE",
                         "cudaErrorInvalidKernelImage",
                         "CUDA_ERROR_INVALID_IMAGE",
                         "cudaErrorDeviceUninitialized",
                         "CUDA_ERROR_INVALID_CONTEXT",
                         "cudaErrorNoKernelImageForDevice",
                         "CUDA_ERROR_NO_BINARY_FOR_GPU",
                         "cudaErrorECCUncorrectable",
                         "CUDA_ERROR_ECC_UNCORRECTABLE",
                         "cudaErrorInvalidPtx",
                         "CUDA_ERROR_INVALID_PTX",
                         "cudaErrorUnsupportedPtxVersion",
                         "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
                         "cudaErrorOperatingSystem",
                         "CUDA_ERROR_OPERATING_SYSTEM",
                         "cudaErrorIllegalAddress",
                         "CUDA_ERROR_ILLEGAL_ADDRESS",
                         "cudaErrorLaunchOutOfResources",
                         "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
                         "cudaErrorLaunchTimeout",
                         "CUDA_ERROR_LAUNCH_TIMEOUT",
                         "cudaErrorAssert",
                         "CUDA_ERROR_ASSERT",
                         "cudaErrorHardwareStackError",
                         "cudaErrorIllegalInstruction",
                         "cudaErrorMisalignedAddress",
                         "cudaErrorInvalidAddressSpace",
                         "cudaErrorInvalidPc",
                         "cudaErrorLaunchFailure",
                         "CUDA_ERROR_LAUNCH_FAILED",
                         "cudaErrorNotPermitted",
                         "CUDA_ERROR_NOT_PERMITTED",
                         "cudaErrorNotSupported",
                         "CUDA_ERROR_NOT_SUPPORTED",
                         "cudaErrorSystemNotReady",
                         "CUDA_ERROR_SYSTEM_NOT_READY",
                         "cudaErrorSystemDriverMismatch",
                         "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
                         "cudaErrorCompatNotSupportedOnDevice",
                         "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
                         "cudaErrorUnknown",
                         "CUDA_ERROR_UNKNOWN"};
  for (const char* name : names) {
    auto m = ScanEmbedded(std::string("call failed: ") + name);
    ASSERT_EQ(m.size(), 1u) << name;
    EXPECT_EQ(m[0].entry->area, "cuda") << name;
  }
}

TEST(ExplainCatalog, ErrorsNameFileAndLine) {
  std::vector<KnowledgeFileText> files = {
      {"data/explain/bad.toml",
       "[[explain]]\nid = \"x.y\"\ntitle = \"t\"\nseverity = \"loud\"\npatterns = ['(?<gfx>']\ncause = "
       "\"c\"\n"
       "fix = \"f\"\nsource = \"nope\"\nsamples = [\"s\"]\nfacts = [\"weather\"]\ntypo = 1\n"}};
  auto load = ParseExplainCatalog(files);
  std::string all;
  for (const auto& e : load.errors) all += e.ToString() + "\n";
  EXPECT_NE(all.find("bad.toml:"), std::string::npos) << all;
  EXPECT_NE(all.find("severity"), std::string::npos) << all;
  EXPECT_NE(all.find("not a URL"), std::string::npos) << all;
  EXPECT_NE(all.find("weather"), std::string::npos) << all;
  EXPECT_NE(all.find("typo"), std::string::npos) << all;
  EXPECT_NE(all.find("literal"), std::string::npos) << all;
}

TEST(ExplainCatalog, DuplicateIdsAreRejected) {
  std::string entry =
      "[[explain]]\nid = \"a.b\"\ntitle = \"t\"\nseverity = \"info\"\npatterns = ['hello world']\ncause = "
      "\"c\"\n"
      "fix = \"f\"\nchecked = 2026-12-03\nsource = \"https://example.org/x\"\nsamples = [\"hello world\"]\n";
  auto load = ParseExplainCatalog({{"data/explain/a.toml", entry + entry}});
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_NE(load.errors[0].message.find("used already"), std::string::npos);
}

// Issue 13: every entry says when its text was last compared with its source; a missing or malformed
// date is an error at the entry's line, and a date after today is found for db lint.
TEST(ExplainCatalog, EveryEntryHasACheckedDate) {
  const ExplainCatalog& catalog = EmbeddedCatalog();
  std::string newest;
  for (const ExplainEntry& e : catalog.entries) {
    ASSERT_EQ(e.checked.size(), 10u) << e.file << ":" << e.line << " " << e.id;
    EXPECT_GE(e.checked, "2026-12-02") << e.id;  // the catalog's first commit
    newest = std::max(newest, e.checked);
  }
  EXPECT_TRUE(ExplainDatesAfter(catalog, newest).empty());
  EXPECT_FALSE(ExplainDatesAfter(catalog, "2026-12-01").empty());

  const std::string head =
      "[[explain]]\nid = \"a.b\"\ntitle = \"t\"\nseverity = \"info\"\npatterns = ['hello world']\n"
      "cause = \"c\"\nfix = \"f\"\n";
  const std::string tail = "source = \"https://example.org/x\"\nsamples = [\"hello world\"]\n";
  auto missing = ParseExplainCatalog({{"data/explain/a.toml", head + tail}});
  ASSERT_EQ(missing.errors.size(), 1u);
  const std::string message = missing.errors[0].ToString();
  EXPECT_NE(message.find("a.toml:1:"), std::string::npos) << message;
  EXPECT_NE(message.find("has no checked date"), std::string::npos) << message;
  auto month = ParseExplainCatalog({{"data/explain/a.toml", head + "checked = \"2026-12\"\n" + tail}});
  ASSERT_EQ(month.errors.size(), 1u);
  EXPECT_NE(month.errors[0].message.find("full date"), std::string::npos) << month.errors[0].message;
}

// The catalog's ONNX Runtime cause and the add-on data (addon_cuda_build) say the same: PyPI's
// onnxruntime-gpu turned CUDA 12 at the release the data gives (1.19; the catalog once said 1.18).
TEST(ExplainCatalog, OnnxruntimeCauseAgreesWithTheAddonData) {
  const KnowledgeDb db = LoadEmbeddedKnowledge().value();
  const AddonCudaBuild* first12 = db.NewestAddonCudaBuild("onnxruntime-gpu", 12);
  ASSERT_NE(first12, nullptr);
  const ExplainEntry* entry = nullptr;
  for (const auto& e : EmbeddedCatalog().entries)
    if (e.id == "addon.onnxruntime_cuda_provider") entry = &e;
  ASSERT_NE(entry, nullptr);
  EXPECT_NE(entry->cause.find(first12->from.ToString() + " and later are CUDA 12"), std::string::npos)
      << entry->cause;
}

}  // namespace
}  // namespace gpudoctor
