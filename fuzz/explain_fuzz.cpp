// libFuzzer target for `gpudoctor explain`'s matcher: any bytes, fed in chunks whose size the first
// byte picks, must never crash, hang or throw, and every result must stay printable and bounded; the
// report (text and JSON) is rendered too, against an empty machine.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "knowledge/knowledge_loader.h"

namespace {

struct Loaded {
  gpudoctor::ExplainCatalog catalog;
  gpudoctor::KnowledgeDb db;
};

// Loaded once per process; the prefilter (the Aho-Corasick tables) too, so each input costs only a scan.
const Loaded& Data() {
  static const Loaded loaded{gpudoctor::LoadEmbeddedExplainCatalog().value(),
                             gpudoctor::LoadEmbeddedKnowledge().value()};
  return loaded;
}

std::shared_ptr<const gpudoctor::ExplainPrefilter> Prefilter() {
  static const auto prefilter = std::make_shared<const gpudoctor::ExplainPrefilter>(Data().catalog);
  return prefilter;
}

}  // namespace

// Builds the catalog, the knowledge base and the prefilter before the first input, so their cost (seconds
// under ASan) never counts towards an input's -timeout.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  (void)Prefilter();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] * 7u;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  gpudoctor::LogScanner scanner(Prefilter());
  for (size_t i = 0; i < text.size(); i += chunk) scanner.Feed(text.substr(i, chunk));
  scanner.Finish();
  for (const gpudoctor::ExplainMatch& m : scanner.matches()) {
    if (m.entry == nullptr || m.count == 0 || m.first_line == 0 || m.excerpt.size() > 310) __builtin_trap();
    for (unsigned char c : m.excerpt)
      if (c < 0x20) __builtin_trap();
  }
  if (scanner.stats().bytes != text.size()) __builtin_trap();
  gpudoctor::Snapshot snap;
  gpudoctor::ExplainReport report =
      gpudoctor::BuildExplainReport(scanner.matches(), scanner.stats(), snap, Data().db, scanner.facts());
  (void)gpudoctor::RenderExplainText(report, data[0] % 2 == 0);
  (void)gpudoctor::RenderExplainJson(report);
  return 0;
}
