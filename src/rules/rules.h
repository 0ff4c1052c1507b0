// The doctor's rules: pure functions over (Snapshot, KnowledgeDb) that return Findings, one file per
// layer (hardware_rules.cpp, runtime_rules.cpp, framework_rules.cpp, environment_rules.cpp). A rule
// never probes; everything it knows comes in through its arguments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "knowledge/knowledge_db.h"
#include "rules/finding.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct RuleOptions {
  bool include_ok = true;  // also return the "ok" findings (what was checked and passed)
  // "YYYY-MM-DD" from the clock: judges the knowledge base's age (knowledge.stale). Empty: not judged.
  std::string today;
};

// Every layer's findings, in layer order (not sorted; see SortWorstFirst).
std::vector<Finding> RunAllRules(const Snapshot& snapshot, const KnowledgeDb& db, const RuleOptions& options);

// The long description of a finding id, for `check --explain ID`.
struct RuleInfo {
  std::string_view id;
  Layer layer;
  std::string_view checks;  // what it checks
  std::string_view why;     // why it matters
  std::string_view source;  // where the rule comes from (URL)
};
const std::vector<RuleInfo>& AllRuleInfo();
const RuleInfo* FindRuleInfo(std::string_view id);

// The layer functions (exposed for tests).
struct RuleContext;
std::vector<Finding> HardwareRules(const RuleContext& ctx);
// The hardware layer's judgement of Snapshot::topology (topology_rules.cpp): XGMI links down, GPUs across
// NUMA nodes.
std::vector<Finding> TopologyRules(const RuleContext& ctx);
std::vector<Finding> RuntimeRules(const RuleContext& ctx);
std::vector<Finding> FrameworkRules(const RuleContext& ctx);
// The framework layer's judgement of the add-ons in each environment (addon_rules.cpp): xformers, vllm,
// flash-attn, triton, onnxruntime-gpu, bitsandbytes, jax against torch, CUDA and the GPUs.
std::vector<Finding> AddonRules(const RuleContext& ctx);
std::vector<Finding> EnvironmentRules(const RuleContext& ctx);
// Native Windows only (windows_rules.cpp): the route that fits each GPU there and what it needs.
std::vector<Finding> WindowsRules(const RuleContext& ctx);
// Native Windows with torch installed (windows_vc_runtime.cpp): the Visual C++ runtime torch's DLLs load.
std::vector<Finding> WindowsVcRuntimeRules(const RuleContext& ctx);

}  // namespace gpudoctor
