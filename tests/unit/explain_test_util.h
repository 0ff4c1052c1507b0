// What the explain tests share: the built-in catalog and knowledge base, each loaded once per test binary,
// and a log explained for a Linux machine with no GPU (the report's fixes then come from the log's own
// facts).
#pragma once

#include <string>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {

inline const ExplainCatalog& EmbeddedCatalog() {
  static const ExplainCatalog catalog = LoadEmbeddedExplainCatalog().value_or(ExplainCatalog{});
  return catalog;
}

inline const KnowledgeDb& EmbeddedDb() {
  static const KnowledgeDb db = LoadEmbeddedKnowledge().value_or(KnowledgeDb{});
  return db;
}

inline ExplainReport ReportOnLinux(const std::string& log) {
  LogScanner scanner(EmbeddedCatalog());
  scanner.Feed(log);
  scanner.Finish();
  Snapshot linux_machine;
  linux_machine.os.family = OsFamily::kLinux;
  return BuildExplainReport(scanner.matches(), scanner.stats(), linux_machine, EmbeddedDb(), scanner.facts());
}

}  // namespace gpudoctor
