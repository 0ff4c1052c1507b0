// libFuzzer target for the report's input files (report/report_inputs.h): any
// bytes, read both as a verify document and as a bench document, must never
// crash, hang or throw; a document that parses is rendered into its report
// section (charts included), and the markup must stay valid UTF-8 without a
// forbidden character and without any markup from the input (no "<script", no
// "<img"). The input is the file as saved, so the saved reports under
// tests/fixtures/reports are seeds as they are (fuzz/targets.txt).
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
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpudoctor::Snapshot snapshot;
  if (auto doc = gpudoctor::ParseVerifyJson(text, "fuzz.json"); doc.ok()) {
    CheckMarkup(gpudoctor::RenderVerifySection(*doc, "fuzz.json", snapshot));
  } else if (doc.error().message.empty()) {
    __builtin_trap();
  }
  if (auto doc = gpudoctor::ParseBenchJson(text, "fuzz.json"); doc.ok()) {
    CheckMarkup(gpudoctor::RenderBenchSection(*doc, "fuzz.json", snapshot));
  } else if (doc.error().message.empty()) {
    __builtin_trap();
  }
  return 0;
}
