// HSA_OVERRIDE_GFX_VERSION, the runtime side: say it is needed only when the code that will run (the
// installed ROCm wheel, else the system ROCm) lacks this GPU's own target but carries the sibling that
// overrides.toml maps it to; say it is right when it does exactly that; say "remove it" when the
// target is native. Linux only (Windows ignores it; WSL only when a route asks). Invalid and
// cross-family values are the environment layer's (environment_rules.cpp).
#include "core/strings.h"
#include "rules/rule_context.h"
#include "rules/target_fix_ranking.h"

namespace gpudoctor {
namespace {

// What will run the GPU code, and whether it carries a target.
struct CodeSource {
  std::string name;                  // "PyTorch 2.5.1+rocm6.2", "ROCm 6.2.0"
  const TorchView* torch = nullptr;  // its libraries' code, when read (outranks the wheel record)
  const TorchWheel* wheel = nullptr;
  const RocmRelease* release = nullptr;
  std::string link;

  bool Has(const std::string& gfx) const {
    if (torch && torch->HasAmdCode()) return CodeHasGfx(*torch, gfx, "");
    if (wheel) return WheelHasGfx(*wheel, gfx);
    if (release) return Contains(release->gfx, gfx);
    return false;
  }
};

std::optional<CodeSource> FindCodeSource(const RuleContext& ctx) {
  if (ctx.torch && ctx.torch->build == TorchBuild::kRocm) {
    // TheRock or a custom build without readable libraries: targets unknown here.
    if (!ctx.torch->wheel && !ctx.torch->HasAmdCode()) return std::nullopt;
    CodeSource s;
    s.name = "PyTorch " + ctx.torch->env->torch->version;
    s.torch = &*ctx.torch;
    s.wheel = ctx.torch->wheel;
    s.link = s.wheel ? FirstSource(s.wheel->provenance) : std::string();
    return s;
  }
  for (const auto& r : ctx.snap.runtimes) {
    if (r.kind != "rocm") continue;
    auto v = Version::Parse(std::string_view(r.version).substr(0, r.version.find('-')));
    if (!v) continue;
    if (const RocmRelease* rel = ctx.db.FindRocmRelease(*v)) {
      CodeSource s;
      s.name = "ROCm " + v->ToString();
      s.release = rel;
      s.link = FirstSource(rel->provenance);
      return s;
    }
  }
  return std::nullopt;
}

Severity FromPitfall(const OverridePitfall* p, Severity fallback) {
  return p ? p->severity : fallback;
}

// HSA_OVERRIDE_GFX_VERSION is set: not needed (the GPU's own target, or the code carries it), unverifiable
// (no code source known), wrong (the code lacks the chosen target too) or right. An invalid, cross-family
// or known-bad value is said by the environment rules instead.
void JudgeSetOverride(const RuleContext& ctx, const GpuView* g, const std::optional<CodeSource>& source,
                      const OverrideRule* rule, std::vector<Finding>& out) {
  const std::string var = "HSA_OVERRIDE_GFX_VERSION";
  const std::string& value = *ctx.override_value;
  auto chosen = GfxNameFromOverride(value);
  if (!chosen) return;  // invalid: environment.override_invalid
  const GpuTarget* target = ctx.db.FindGfxTarget(*chosen);
  if (!target || target->generic.empty() || target->generic != g->target->generic) {
    if (*chosen != g->gfx) return;  // another family: environment.override_cross_family
  }
  for (const auto& p : ctx.db.override_pitfalls) {
    // Known to go wrong on this GPU: environment.override_known_bad says so.
    if (p.when == PitfallWhen::kListed && Contains(p.gfx, g->gfx) && Contains(p.values, value)) return;
  }
  const bool native = *chosen == g->gfx || (source && source->Has(g->gfx));
  if (native) {
    const OverridePitfall* pit = ctx.db.FindPitfall("native-target");
    Finding f =
        MakeFinding("runtime.override_not_needed", Layer::kRuntime, FromPitfall(pit, Severity::kWarning),
                    g->label, var + "=" + value + " is set but not needed: remove it");
    if (*chosen == g->gfx) {
      f.evidence.push_back("the value selects " + *chosen + ", the GPU's own target: it changes nothing");
    } else {
      f.evidence.push_back("required an override only when the code lacks " + g->gfx + ", found " +
                           source->name + " carrying " + g->gfx + " itself; the override swaps in " +
                           *chosen + " code");
    }
    if (rule && !rule->native_wheels.empty())
      f.evidence.push_back("pytorch.org wheels carry " + g->gfx + " natively from " +
                           ctx.db.FirstNativeWheel(*rule, g->gfx) + " on");
    f.fix_summary = "unset the override (and remove it from ~/.bashrc, ~/.profile or the service file)";
    f.fix.push_back(FixAction::UnsetEnv(var));
    if (pit) Cite(f, pit->provenance);
    out.push_back(std::move(f));
    return;
  }
  if (!source) {
    Finding f = MakeFinding("runtime.override_unverified", Layer::kRuntime, Severity::kInfo, g->label,
                            var + "=" + value + " runs " + *chosen + " code on " + g->gfx +
                                "; which targets the installed build carries is unknown");
    f.evidence.push_back("found no ROCm wheel or system ROCm in the knowledge base to check " + *chosen +
                         " against");
    if (rule) Cite(f, rule->provenance);
    out.push_back(std::move(f));
    return;
  }
  if (!source->Has(*chosen)) {
    Finding f =
        MakeFinding("runtime.override_target_missing", Layer::kRuntime, Severity::kError, g->label,
                    var + "=" + value + " selects " + *chosen + ", which " + source->name + " lacks too");
    f.evidence.push_back("required " + *chosen + " in " + source->name + ", found it missing");
    if (rule && rule->value != value) {
      f.fix_summary = "use the value known for " + g->gfx;
      f.fix.push_back(FixAction::SetEnv(var, rule->value));
    }
    f.link = source->link;
    out.push_back(std::move(f));
    return;
  }
  Finding f = MakeFinding("runtime.override_ok", Layer::kRuntime,
                          rule && rule->verdict == OverrideVerdict::kWorks ? Severity::kOk : Severity::kInfo,
                          g->label,
                          var + "=" + value + " is right for " + g->gfx + ": " + source->name + " lacks " +
                              g->gfx + " and carries " + *chosen);
  f.evidence.push_back("required " + (rule ? rule->value : std::string("a same-family value")) + " for " +
                       g->gfx + ", found " + value);
  f.evidence.push_back(source->name + " has no " + g->gfx + " code; " + *chosen +
                       " code runs on it through the override");
  if (rule && rule->verdict != OverrideVerdict::kWorks)
    f.evidence.push_back(std::string("overrides.toml marks this mapping ") +
                         (rule->verdict == OverrideVerdict::kRisky ? "risky" : "unverified"));
  if (rule) Cite(f, rule->provenance);
  out.push_back(std::move(f));
}

// HSA_OVERRIDE_GFX_VERSION is not set: needed only when the code lacks the target and carries the mapped
// sibling; for PyTorch a build made for the GPU, where one exists, comes first.
void SuggestOverride(const RuleContext& ctx, const GpuView* g, const std::optional<CodeSource>& source,
                     const OverrideRule* rule, std::vector<Finding>& out) {
  const std::string var = "HSA_OVERRIDE_GFX_VERSION";
  if (ctx.platform == Platform::kWsl || !source || !rule || source->Has(g->gfx)) return;
  auto sibling = GfxNameFromOverride(rule->value);
  if (!sibling || !source->Has(*sibling)) return;
  // For PyTorch the fixes are ranked by data (target_fix_ranking.h): where a build made for the GPU
  // exists it comes first and the override is its caveated fallback.
  RankedFixes ranked;
  if (source->torch || source->wheel) ranked = RankFixesForMissingTarget(ctx, *g, true);
  const bool override_first = ranked.kinds.empty() || ranked.kinds.front() == TargetFixKind::kOverride;
  Finding f =
      MakeFinding("runtime.override_needed", Layer::kRuntime, Severity::kWarning, g->label,
                  source->name + " has no " + g->gfx + " code: " +
                      (override_first ? "set " + var + "=" + rule->value + " to run its " + *sibling + " code"
                                      : "install a build that carries it, or set " + var + "=" + rule->value +
                                            " to run its " + *sibling + " code"));
  f.evidence.push_back("required " + g->gfx + " in " + source->name + ", found it missing; " + *sibling +
                       " (same family) is there");
  if (rule->verdict != OverrideVerdict::kWorks)
    f.evidence.push_back(std::string("overrides.toml marks this mapping ") +
                         (rule->verdict == OverrideVerdict::kRisky ? "risky" : "unverified"));
  if (!ranked.options.empty()) {
    ApplyRankedFixes(ranked, f);
    RestsOn(f, rule->provenance);
    out.push_back(std::move(f));
    return;
  }
  for (const TheRockFamily* fam : ctx.db.FindTheRockFamilies(g->gfx)) {
    if (EndsWith(fam->name, "-all")) {
      f.evidence.push_back("or install TheRock's build for " + fam->name + ", which carries " + g->gfx +
                           " itself (no override)");
      break;
    }
  }
  f.fix_summary = "set the override (add the line to ~/.profile to keep it)";
  f.fix.push_back(FixAction::SetEnv(var, rule->value));
  Cite(f, rule->provenance);
  out.push_back(std::move(f));
}

}  // namespace

void OverrideRules(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform == Platform::kWindows) return;
  const GpuView* g = PrimaryAmd(ctx);
  if (!g) return;
  const std::optional<CodeSource> source = FindCodeSource(ctx);
  const OverrideRule* rule = ctx.db.FindOverrideRule(g->gfx);
  if (ctx.override_value) {
    JudgeSetOverride(ctx, g, source, rule, out);
  } else {
    SuggestOverride(ctx, g, source, rule, out);
  }
}

}  // namespace gpudoctor
