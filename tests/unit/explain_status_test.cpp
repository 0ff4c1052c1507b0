// The status-code model (data/status_codes.toml, knowledge/status_code_lookup.cpp) and its use in explain
// (data/explain/status.toml through `{status:API:capture}`): a code quoted by a program no entry knows still
// gets the API's meaning of it, whether the log prints its full name, the name without the API's prefix or
// its number. Meanings are the model's own rows, looked up here, never restated.
#include <gtest/gtest.h>

#include <string>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {
namespace {

TEST(StatusCodeModel, NamesPrefixlessNamesAndNumbersFindTheSameRow) {
  const StatusCode* full = EmbeddedDb().FindStatusCode("vulkan", "VK_ERROR_INCOMPATIBLE_DRIVER");
  ASSERT_NE(full, nullptr);
  // Without the prefix, as ash, gfx-rs and vulkaninfo print it.
  EXPECT_EQ(EmbeddedDb().FindStatusCode("vulkan", "ERROR_INCOMPATIBLE_DRIVER"), full);
  EXPECT_EQ(EmbeddedDb().FindStatusCode("vulkan", "vk_error_incompatible_driver"), full);
  EXPECT_EQ(EmbeddedDb().FindStatusCode("vulkan", "-9"), full);

  const StatusCode* platform = EmbeddedDb().FindStatusCode("opencl", "-1001");
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(platform->code, "CL_PLATFORM_NOT_FOUND_KHR");

  const StatusCode* hung = EmbeddedDb().FindStatusCode("dxgi", "887A0006");  // an HRESULT's hex digits alone
  ASSERT_NE(hung, nullptr);
  EXPECT_EQ(hung->code, "DXGI_ERROR_DEVICE_HUNG");
  EXPECT_EQ(EmbeddedDb().FindStatusCode("dxgi", "0x887A0006"), hung);
}

TEST(StatusCodeModel, CamelCaseNamesOfBindingsFindTheCHeadersRow) {
  // Vulkan-Hpp's exceptions and Rust/Go bindings print the names in CamelCase.
  const StatusCode* oom = EmbeddedDb().FindStatusCode("vulkan", "ErrorOutOfDeviceMemory");
  ASSERT_NE(oom, nullptr);
  EXPECT_EQ(oom->code, "VK_ERROR_OUT_OF_DEVICE_MEMORY");
  const StatusCode* platform = EmbeddedDb().FindStatusCode("opencl", "PlatformNotFoundKhr");
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(platform->code, "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(EmbeddedDb().FindStatusCode("vulkan", "ErrorNotACode"), nullptr);
}

TEST(StatusCodeModel, ACodeIsLookedUpOnlyInItsOwnApi) {
  // CL_OUT_OF_RESOURCES and PI_ERROR_OUT_OF_RESOURCES share the number -5; each API answers for its own.
  const StatusCode* cl = EmbeddedDb().FindStatusCode("opencl", "-5");
  const StatusCode* pi = EmbeddedDb().FindStatusCode("sycl", "-5");
  ASSERT_NE(cl, nullptr);
  ASSERT_NE(pi, nullptr);
  EXPECT_EQ(cl->api, "opencl");
  EXPECT_EQ(pi->api, "sycl");
  EXPECT_EQ(EmbeddedDb().FindStatusCode("vulkan", "CL_OUT_OF_RESOURCES"), nullptr);
  EXPECT_EQ(EmbeddedDb().FindStatusCode("vulkan", "VK_ERROR_NOT_A_CODE"), nullptr);
  EXPECT_TRUE(EmbeddedDb().HasStatusApi("nvml"));
  EXPECT_FALSE(EmbeddedDb().HasStatusApi("glide"));
}

TEST(StatusCodeModel, BadRowsAreRefused) {
  const char* bad[] = {
      // an API name in capitals
      "[[status_code]]\napi = \"Vulkan\"\ncode = \"VK_ERROR_X\"\nmeaning = \"m\"\nchecked = 2026-12-06\n"
      "source = \"https://example.com/a\"\n",
      // a code with a space
      "[[status_code]]\napi = \"vulkan\"\ncode = \"VK ERROR\"\nmeaning = \"m\"\nchecked = 2026-12-06\n"
      "source = \"https://example.com/a\"\n",
      // no meaning
      "[[status_code]]\napi = \"vulkan\"\ncode = \"VK_ERROR_X\"\nchecked = 2026-12-06\n"
      "source = \"https://example.com/a\"\n",
      // the same code twice
      "[[status_code]]\napi = \"vulkan\"\ncode = \"VK_ERROR_X\"\nmeaning = \"m\"\nchecked = 2026-12-06\n"
      "source = \"https://example.com/a\"\n"
      "[[status_code]]\napi = \"vulkan\"\ncode = \"VK_ERROR_X\"\nmeaning = \"n\"\nchecked = 2026-12-06\n"
      "source = \"https://example.com/a\"\n",
  };
  for (const char* text : bad) EXPECT_FALSE(ParseKnowledgeFile({"codes.toml", text}).errors.empty()) << text;
}

// A Rust program's panic with a prefixless Vulkan code: the finding names the loader's driver problem and
// the report adds the code's meaning from the model.
TEST(StatusCodeExplain, AVulkanPanicGetsTheCodesMeaning) {
  const ExplainReport r = ReportOnLinux(
      "thread 'main' panicked at 'Unable to create Vulkan instance: VkError(ERROR_INCOMPATIBLE_DRIVER)', "
      "src/libcore/result.rs:1165:5\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches[0].match.entry->id, "vulkan.error");
  const StatusCode* row = EmbeddedDb().FindStatusCode("vulkan", "VK_ERROR_INCOMPATIBLE_DRIVER");
  ASSERT_NE(row, nullptr);
  EXPECT_NE(r.matches[0].specific_fix.find(row->code + " (-9): " + row->meaning), std::string::npos)
      << r.matches[0].specific_fix;
}

// The forms a Vulkan program prints beside VK_ERROR_*: a bare number after the call (ncnn and the
// *-ncnn-vulkan upscalers) and Vulkan-Hpp's CamelCase exception text (llama.cpp's ggml_vulkan).
TEST(StatusCodeExplain, VulkanNumbersAndCamelCaseCodesGetTheirMeaning) {
  const ExplainReport number = ReportOnLinux("vkCreateInstance failed -9\ninvalid gpu device\n");
  ASSERT_FALSE(number.matches.empty());
  EXPECT_EQ(number.matches[0].match.entry->id, "vulkan.error");
  EXPECT_NE(number.matches[0].specific_fix.find("VK_ERROR_INCOMPATIBLE_DRIVER (-9): "), std::string::npos)
      << number.matches[0].specific_fix;

  const ExplainReport camel = ReportOnLinux(
      "ggml_vulkan: Device memory allocation of size 118497280 failed.\n"
      "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n");
  ASSERT_FALSE(camel.matches.empty());
  EXPECT_EQ(camel.matches[0].match.entry->id, "vulkan.error");
  EXPECT_NE(camel.matches[0].specific_fix.find("VK_ERROR_OUT_OF_DEVICE_MEMORY (-2): "), std::string::npos)
      << camel.matches[0].specific_fix;
}

TEST(StatusCodeExplain, SyclReturnsAreReadByNameAndAnUnknownCodeAddsNothing) {
  const ExplainReport known = ReportOnLinux(
      "Native API failed. Native API returns: -30 (PI_ERROR_INVALID_VALUE) -30 (PI_ERROR_INVALID_VALUE)\n");
  ASSERT_FALSE(known.matches.empty());
  EXPECT_EQ(known.matches[0].match.entry->id, "oneapi.error");
  EXPECT_NE(known.matches[0].specific_fix.find("PI_ERROR_INVALID_VALUE (-30): "), std::string::npos);

  const ExplainReport unknown = ReportOnLinux(
      "Native API failed. Native API returns: -999 (Unknown PI error) -999 (Unknown PI error)\n");
  ASSERT_FALSE(unknown.matches.empty());
  EXPECT_EQ(unknown.matches[0].match.entry->id, "oneapi.error");
  EXPECT_EQ(unknown.matches[0].specific_fix, "");  // the model has no row: no invented meaning
}

// A status entry is the generic reading of a code: an entry that knows the situation wins.
TEST(StatusCodeExplain, ASpecificEntryOutranksTheStatusEntry) {
  const ExplainReport r = ReportOnLinux(
      "DirectML: The GPU device instance has been suspended. Use GetDeviceRemovedReason to determine the "
      "appropriate action. DXGI_ERROR_DEVICE_REMOVED\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches[0].match.entry->id, "windows.tdr");
}

// The component model (data/components.toml): a failure no entry knows still says which part of the stack its
// failing line names and the command that shows that part's state.
TEST(ComponentModel, WholeWordsNameAComponentAndIdentifiersDoNot) {
  const auto named = EmbeddedDb().ComponentsNamedIn("RuntimeError: Failed to create a Vulkan instance");
  ASSERT_FALSE(named.empty());
  EXPECT_EQ(named[0]->name, "Vulkan");
  // "hip" inside "relationship" and "mps" inside "timestamps" are not the components.
  EXPECT_TRUE(EmbeddedDb().ComponentsNamedIn("ValueError: bad relationship between timestamps").empty());
}

TEST(ComponentModel, AnUnknownFailureGetsTheComponentAndItsStateCommand) {
  const ExplainReport r = ReportOnLinux("RuntimeError: OpenCL platform query returned nothing useful\n");
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].match.entry->id, "unrecognized.error");
  const auto named = EmbeddedDb().ComponentsNamedIn("OpenCL");
  ASSERT_EQ(named.size(), 1u);
  EXPECT_NE(r.matches[0].fallback_advice.find("names OpenCL"), std::string::npos)
      << r.matches[0].fallback_advice;
  EXPECT_NE(r.matches[0].fallback_advice.find(named[0]->state), std::string::npos)
      << r.matches[0].fallback_advice;
}

TEST(ComponentModel, ARustPanicIsAFailureLine) {
  const ExplainReport r = ReportOnLinux(
      "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: NoAdapter', "
      "src/main.rs:12:5\n");
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].match.entry->id, "unrecognized.error");
}

TEST(ComponentModel, BadRowsAreRefused) {
  const char* bad[] = {
      // a token in capitals
      "[[component]]\nname = \"X\"\ntokens = [\"Vulkan\"]\nwhat = \"w\"\nstate = \"s\"\nchecked = "
      "2026-12-06\n"
      "source = \"https://example.com/a\"\n",
      // a token too short to be a word of its own
      "[[component]]\nname = \"X\"\ntokens = [\"cl\"]\nwhat = \"w\"\nstate = \"s\"\nchecked = 2026-12-06\n"
      "source = \"https://example.com/a\"\n",
      // no state command
      "[[component]]\nname = \"X\"\ntokens = [\"vulkan\"]\nwhat = \"w\"\nchecked = 2026-12-06\n"
      "source = \"https://example.com/a\"\n",
  };
  for (const char* text : bad) EXPECT_FALSE(ParseKnowledgeFile({"parts.toml", text}).errors.empty()) << text;
}

}  // namespace
}  // namespace gpudoctor
