// libFuzzer target for the codecs of gpudoctor's result documents (gates/verify_json.h, bench/bench_json.h,
// report/check_json.h, collectives/collectives_json.h, tune/tune_json.h): any bytes, read as each kind of
// document, must never crash, hang or throw, and a refusal always has a message. A document that reads is
// written again, and what is written must read back (the codecs are each other's inverse; collectives' P2P
// matrix keeps its own reader, so there only the writing is checked); a verify or bench report is also
// rendered into its HTML report section (charts included), whose markup must stay valid UTF-8 without a
// forbidden character and without any markup from the input (no "<script", no "<img"). The input is the file
// as saved, so the saved reports under tests/fixtures/reports are seeds as they are (fuzz/targets.txt). Each
// reader parses the whole text and, on a syntax error, parses it again for the line; so the text is checked
// once (nlohmann's accept, no tree built) and one that is not JSON goes to one reader only, a different one
// by its length.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bench/bench_json.h"
#include "collectives/collectives_json.h"
#include "core/json_reader.h"
#include "gates/verify_json.h"
#include "report/check_json.h"
#include "report/html_escape.h"
#include "report/html_results.h"
#include "tune/tune_json.h"

namespace {

void CheckMarkup(const std::string& html) {
  if (gpudoctor::SanitizeUtf8(html) != html) __builtin_trap();
  if (html.find("<script") != std::string::npos || html.find("<img") != std::string::npos) __builtin_trap();
}

// Reads `text` with `from`; what reads must write and read back.
template <typename From, typename To, typename Use>
void ReadWriteRead(std::string_view text, From from, To to, Use use) {
  auto doc = from(text, "fuzz.json");
  if (!doc.ok()) {
    if (doc.error().message.empty()) __builtin_trap();
    return;
  }
  if (!from(to(*doc), "again.json").ok()) __builtin_trap();
  use(*doc);
}

template <typename From>
void MustRefuse(std::string_view text, From from) {
  auto doc = from(text, "fuzz.json");
  if (doc.ok() || doc.error().message.empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!JsonValue::accept(text)) {  // not JSON: one reader, by the length, must refuse it with a message
    switch (size % 5) {
      case 0:
        MustRefuse(text, VerifyReportFromJson);
        break;
      case 1:
        MustRefuse(text, BenchReportFromJson);
        break;
      case 2:
        MustRefuse(text, CheckReportFromJson);
        break;
      case 3:
        MustRefuse(text, TuneResultFromJson);
        break;
      default:
        MustRefuse(text, CollectivesReportFromJson);
        break;
    }
    return 0;
  }
  Snapshot snapshot;
  ReadWriteRead(text, VerifyReportFromJson, VerifyReportToJson,
                [&](const VerifyReport& r) { CheckMarkup(RenderVerifySection(r, "fuzz.json", snapshot)); });
  ReadWriteRead(text, BenchReportFromJson, BenchReportToJson,
                [&](const BenchReport& r) { CheckMarkup(RenderBenchSection(r, "fuzz.json", snapshot)); });
  ReadWriteRead(text, CheckReportFromJson, CheckReportToJson, [](const CheckReport&) {});
  ReadWriteRead(text, TuneResultFromJson, TuneResultToJson, [](const TuneResult&) {});
  if (auto c = CollectivesReportFromJson(text, "fuzz.json"); c.ok())
    (void)CollectivesReportToJson(*c);
  else if (c.error().message.empty())
    __builtin_trap();
  return 0;
}
