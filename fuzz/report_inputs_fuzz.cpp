// libFuzzer target for the report's input files (report/report_inputs.h): any bytes, read as a verify
// document (first byte even) or a bench document (odd), must never crash, hang or throw; a document that
// parses is rendered into its report section (charts included), and the markup must stay valid UTF-8
// without a forbidden character and without any markup from the input (no "<script", no "<img").
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "report/html_escape.h"
#include "report/html_results.h"
#include "report/report_inputs.h"

namespace {

void CheckMarkup(const std::string& html) {
  if (gpudoctor::SanitizeUtf8(html) != html) __builtin_trap();
  if (html.find("<script") != std::string::npos || html.find("<img") != std::string::npos) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  gpudoctor::Snapshot snapshot;
  if (data[0] % 2 == 0) {
    auto doc = gpudoctor::ParseVerifyJson(text, "fuzz.json");
    if (!doc.ok()) {
      if (doc.error().message.empty()) __builtin_trap();
      return 0;
    }
    CheckMarkup(gpudoctor::RenderVerifySection(*doc, "fuzz.json", snapshot));
  } else {
    auto doc = gpudoctor::ParseBenchJson(text, "fuzz.json");
    if (!doc.ok()) {
      if (doc.error().message.empty()) __builtin_trap();
      return 0;
    }
    CheckMarkup(gpudoctor::RenderBenchSection(*doc, "fuzz.json", snapshot));
  }
  return 0;
}
