// The fixes for an AMD GPU whose installed PyTorch lacks the GPU's own code, best first, in the order
// data/overrides.toml's [[fix_ranking]] gives for the target: a build compiled for it (pytorch.org's or
// AMD's wheels), HSA_OVERRIDE_GFX_VERSION with its caveat, a nightly or community build. The first one
// that exists for this GPU becomes the finding's fix (and the JSON's first action); the others follow
// as alternatives. Used by framework.torch_no_kernels and runtime.override_needed.
#pragma once

#include <vector>

#include "rules/finding.h"
#include "rules/rule_context.h"

namespace gpudoctor {

struct RankedFixes {
  std::vector<FixOption> options;           // best first
  std::vector<TargetFixKind> kinds;         // the kind of each option
  const FixRanking* ranking = nullptr;      // the row that ordered them; nullptr: none recorded
  std::vector<const Provenance*> rests_on;  // the routes and the override rule the options come from
  // Per option, the evidence its fix brings (a project pin a reinstall must edit first); the first
  // option's joins the finding's evidence.
  std::vector<std::vector<std::string>> evidence;
};

// `override_runs`: the installed code carries the sibling the target's override selects (and its rocBLAS
// kernel files do), so the override would work; the platform must be Linux for it to be offered.
RankedFixes RankFixesForMissingTarget(const RuleContext& ctx, const GpuView& g, bool override_runs);

// The first option becomes f's fix, summary and (when f has none) source; the rest f.alternatives; the
// ranking row and the entries the options rest on are marked in f.unconfirmed when not confirmed.
void ApplyRankedFixes(const RankedFixes& ranked, Finding& f);

}  // namespace gpudoctor
