// The ranked fixes for a GPU whose installed build lacks its own code (see target_fix_ranking.h). Each
// kind of fix is built only where it exists for this GPU; [[fix_ranking]] decides the order.
#include "rules/target_fix_ranking.h"

#include <optional>

#include "rules/framework_parts.h"

namespace gpudoctor {
namespace {

bool IsNative(RouteStatus s) {
  return s == RouteStatus::kOfficial || s == RouteStatus::kPreview;
}

bool IsCommunity(RouteStatus s) {
  return s == RouteStatus::kNightly || s == RouteStatus::kCommunity;
}

// The first (most official) route of a kind, or nullopt.
template <typename Pred>
std::optional<RouteChoice> FirstRoute(const std::vector<RouteChoice>& routes, Pred pred) {
  for (const RouteChoice& r : routes)
    if (pred(r.route->status)) return r;
  return std::nullopt;
}

std::string RouteName(const RouteChoice& r) {
  return r.route->name + (r.variant.empty() ? "" : " (" + r.variant + ")");
}

// The reinstall of `r` as AddReinstall makes it (a project pin that would undo it is edited first); the
// evidence it adds (the pin) goes to `evidence`.
FixOption BuildOption(const RuleContext& ctx, const RouteChoice& r, const std::string& gfx,
                      std::vector<std::string>& evidence) {
  Finding scratch;
  AddReinstall(ctx, r, scratch);
  FixOption o;
  o.summary = "replace it with " + RouteName(r) + " [" + ToString(r.route->status) + "], which carries " +
              gfx + " itself: no override; " + kTorchPitfall;
  o.fix = std::move(scratch.fix);
  o.link = FirstSource(r.route->provenance);
  evidence = std::move(scratch.evidence);
  return o;
}

FixOption OverrideOption(const OverrideRule& rule, const std::string& sibling, const std::string& gfx,
                         bool after_a_build) {
  FixOption o;
  o.summary = "keep this build and run its " + sibling + " code with HSA_OVERRIDE_GFX_VERSION=" + rule.value +
              " (Linux only; add the line to ~/.profile to keep it)";
  if (after_a_build) o.summary += "; only while this build stays: a build carrying " + gfx + " needs none";
  if (rule.verdict == OverrideVerdict::kRisky)
    o.summary += "; risky on " + gfx + (rule.provenance.note.empty() ? "" : ": " + rule.provenance.note);
  else if (rule.verdict == OverrideVerdict::kUnverified)
    o.summary += "; unverified on " + gfx + " (community reports only)";
  o.fix.push_back(FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", rule.value));
  o.link = FirstSource(rule.provenance);
  return o;
}

const std::vector<TargetFixKind> kDefaultOrder = {TargetFixKind::kNativeBuild, TargetFixKind::kOverride,
                                                  TargetFixKind::kCommunityBuild};

}  // namespace

RankedFixes RankFixesForMissingTarget(const RuleContext& ctx, const GpuView& g, bool override_runs) {
  RankedFixes out;
  out.ranking = ctx.db.FindFixRanking(FixSituation::kCodeLacksTarget, g.gfx);
  const std::vector<TargetFixKind>& order = out.ranking ? out.ranking->order : kDefaultOrder;
  const std::vector<RouteChoice> routes = RoutesFor(ctx, g);
  const auto native = FirstRoute(routes, IsNative);
  const auto community = FirstRoute(routes, IsCommunity);
  const OverrideRule* rule = ctx.db.FindOverrideRule(g.gfx);
  const auto sibling = rule ? GfxNameFromOverride(rule->value) : std::nullopt;
  const bool override_ok = rule && sibling && override_runs && ctx.platform == Platform::kLinux;
  bool build_before = false;  // a build that carries the target ranks before the override
  for (TargetFixKind kind : order) {
    switch (kind) {
      case TargetFixKind::kNativeBuild:
        if (!native) continue;
        out.options.push_back(BuildOption(ctx, *native, g.gfx, out.evidence.emplace_back()));
        out.rests_on.push_back(&native->route->provenance);
        build_before = true;
        break;
      case TargetFixKind::kOverride:
        if (!override_ok) continue;
        out.options.push_back(OverrideOption(*rule, *sibling, g.gfx, build_before));
        out.evidence.emplace_back();
        out.rests_on.push_back(&rule->provenance);
        break;
      case TargetFixKind::kCommunityBuild:
        if (!community) continue;
        out.options.push_back(BuildOption(ctx, *community, g.gfx, out.evidence.emplace_back()));
        out.rests_on.push_back(&community->route->provenance);
        build_before = true;
        break;
    }
    out.kinds.push_back(kind);
  }
  return out;
}

void ApplyRankedFixes(const RankedFixes& ranked, Finding& f) {
  if (ranked.options.empty()) return;
  const FixOption& first = ranked.options.front();
  f.fix_summary = first.summary;
  f.fix = first.fix;
  if (f.link.empty()) f.link = first.link;
  for (const std::string& e : ranked.evidence.front()) f.evidence.push_back(e);
  for (size_t i = 1; i < ranked.options.size(); ++i) f.alternatives.push_back(ranked.options[i]);
  if (ranked.ranking) RestsOn(f, ranked.ranking->provenance);
  for (const Provenance* p : ranked.rests_on) RestsOn(f, *p);
}

}  // namespace gpudoctor
