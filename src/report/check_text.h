// `gpudoctor check` as text: one line per layer like a doctor, then the findings worst first, each
// with its evidence and its fix for one shell.
#pragma once

#include <string>
#include <vector>

#include "report/info_text.h"
#include "rules/finding.h"
#include "rules/knowledge_age.h"
#include "rules/rules.h"
#include "rules/shell.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// One line per layer: its worst finding.
struct LayerSummary {
  Layer layer = Layer::kHardware;
  Severity severity = Severity::kOk;
  std::string text;  // the worst finding's title, or what was checked
};
std::vector<LayerSummary> SummarizeLayers(const std::vector<Finding>& findings);

// `findings` in any order; they are shown worst first.
// `knowledge`: the data's as-of line under the title (none when as_of is empty).
std::string RenderCheckText(const Snapshot& snapshot, std::vector<Finding> findings, Shell shell,
                            const TextStyle& style = {}, const KnowledgeStamp& knowledge = {});

// The long text of `check --explain ID`.
std::string RenderRuleExplanation(const RuleInfo& info);

}  // namespace gpudoctor
