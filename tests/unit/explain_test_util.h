// What the explain tests share: the built-in catalog and knowledge base, each loaded once per test binary,
// and a log explained for a Linux machine with no GPU (the report's fixes then come from the log's own
// facts).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {

// The built-in catalog; one that does not load is a test failure (and an empty catalog).
inline const ExplainCatalog& EmbeddedCatalog() {
  static const ExplainCatalog catalog = [] {
    auto c = LoadEmbeddedExplainCatalog();
    if (!c.ok()) ADD_FAILURE() << c.error().message;
    return c.ok() ? *c : ExplainCatalog{};
  }();
  return catalog;
}

// The built-in catalog's prefilters, each built once per test binary: building one for every short text
// made the catalog tests the slowest of the suite (61 s native, 199 s under ASan, for ~1,500 samples).
inline std::shared_ptr<const ExplainPrefilter> EmbeddedPrefilter(bool read_facts) {
  if (read_facts) {
    static const auto with_facts = std::make_shared<const ExplainPrefilter>(EmbeddedCatalog(), true);
    return with_facts;
  }
  static const auto matches_only = std::make_shared<const ExplainPrefilter>(EmbeddedCatalog(), false);
  return matches_only;
}

// ScanText on the built-in catalog (matches only, no log facts).
inline std::vector<ExplainMatch> ScanEmbedded(std::string_view text) {
  return ScanText(EmbeddedPrefilter(false), text);
}

inline const KnowledgeDb& EmbeddedDb() {
  static const KnowledgeDb db = LoadEmbeddedKnowledge().value_or(KnowledgeDb{});
  return db;
}

// The id of the report's first finding, "" when it has none.
inline std::string FirstId(const ExplainReport& r) {
  return r.matches.empty() ? "" : r.matches.front().match.entry->id;
}

inline ExplainReport ReportOnLinux(const std::string& log) {
  LogScanner scanner(EmbeddedPrefilter(true));
  scanner.Feed(log);
  scanner.Finish();
  Snapshot linux_machine;
  linux_machine.os.family = OsFamily::kLinux;
  return BuildExplainReport(scanner.matches(), scanner.stats(), linux_machine, EmbeddedDb(), scanner.facts());
}

}  // namespace gpudoctor
