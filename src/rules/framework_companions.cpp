// torchvision and torchaudio against the torch in the same environment: each release is built for one
// torch release series (data/torch_companions.toml), and for one build of it (the +cu128 / +rocm6.2
// / +cpu local tag). Another pairing fails at import or at the first operator ("operator
// torchvision::nms does not exist"), or makes pip pull a second torch.

#include "core/strings.h"
#include "rules/framework_parts.h"
#include "rules/pinned_fixes.h"
#include "rules/pip_commands.h"
#include "rules/shell.h"

namespace gpudoctor {
namespace {

std::string LocalTag(std::string_view version) {
  size_t plus = version.find('+');
  return plus == std::string_view::npos ? "" : std::string(version.substr(plus + 1));
}

std::string SeriesList(const std::vector<Version>& series) {
  std::string out;
  for (const auto& s : series) out += (out.empty() ? "" : " or ") + s.ToString() + ".x";
  return out;
}

ShellCommands ReinstallCompanion(const std::string& package, const Version& series,
                                 const std::string& variant) {
  std::string spec = "\"" + package + "==" + series.ToString() + ".*\"";
  std::string index = IsPytorchIndexVariant(variant) ? " --index-url " + PytorchIndexUrl(variant) : "";
  return PipCommand("install --force-reinstall --no-deps " + spec + index);
}

struct Pairing {
  const FrameworkInstall* fw = nullptr;
  const std::vector<Version>* want = nullptr;
};

void CheckEnv(const RuleContext& ctx, const PythonEnv& env, std::vector<Finding>& out) {
  const TorchView t = MakeTorchView(env, ctx.db);
  if (!t.version) return;
  const TorchCompanion* comp = ctx.db.FindTorchCompanion(*t.version);
  std::vector<Pairing> pairs;
  for (const auto& fw : env.frameworks) {
    if (fw.family == "torchvision" && comp) pairs.push_back({&fw, &comp->torchvision});
    if (fw.family == "torchaudio" && comp) pairs.push_back({&fw, &comp->torchaudio});
  }
  if (pairs.empty()) return;
  std::string fine;
  size_t fine_count = 0;
  for (const Pairing& p : pairs) {
    const FrameworkInstall& fw = *p.fw;
    auto v = Version::ParseLeading(fw.version);
    bool series_ok = false;
    for (const auto& s : *p.want) series_ok = series_ok || (v && v->HasPrefix(s));
    const std::string tag = LocalTag(fw.version);
    const bool build_ok = tag.empty() || t.variant.empty() || tag == t.variant;
    if (series_ok && build_ok) {
      fine += (fine.empty() ? "" : ", ") + fw.family + " " + fw.version;
      ++fine_count;
      continue;
    }
    const std::string torch_text = "torch " + env.torch->version;
    Finding f = MakeFinding("framework." + fw.family + "_mismatch", Layer::kFramework, Severity::kError,
                            fw.family + " " + fw.version + " in " + env.site_packages,
                            fw.family + " " + fw.version + " was built for another torch than " +
                                env.torch->version + (series_ok ? " (another build: +" + tag + ")" : ""));
    f.evidence.push_back("required " + fw.family + " " + SeriesList(*p.want) +
                         (t.variant.empty() ? "" : " (+" + t.variant + ")") + " for " + torch_text +
                         ", found " + fw.version + " (" + fw.source + ")");
    const Version& series = p.want->back();
    f.fix_summary =
        "install the " + fw.family + " built for " + torch_text +
        (IsPytorchIndexVariant(t.variant) ? ", from the same index" : ", from the index torch came from") +
        " (--no-deps keeps this torch)";
    f.fix.push_back(
        FixAction::PerShell(ForEnvironment(ReinstallCompanion(fw.family, series, t.variant), &env)));
    const std::string want = fw.family + "==" + series.ToString() + ".*";
    ApplyProjectPins(&env,
                     {{fw.family, want, IsPytorchIndexVariant(t.variant) ? PytorchIndexUrl(t.variant) : "",
                       t.variant, series.ToString() + ".*"}},
                     "a " + want + (t.variant.empty() ? "" : " (+" + t.variant + ")"), f);
    Cite(f, comp->provenance);
    out.push_back(std::move(f));
  }
  if (!fine.empty()) {
    Finding f =
        MakeFinding("framework.companions_ok", Layer::kFramework, Severity::kOk, Installed(t),
                    fine + (fine_count == 1 ? " matches" : " match") + " torch " + env.torch->version);
    f.evidence.push_back("required the releases built for torch " + std::to_string(t.version->major()) + "." +
                         std::to_string(t.version->minor()) + ", found " + fine);
    Cite(f, comp->provenance);
    out.push_back(std::move(f));
  }
}

}  // namespace

void CompanionRules(const RuleContext& ctx, std::vector<Finding>& out) {
  for (const auto& env : ctx.snap.python_envs)
    if (env.torch) CheckEnv(ctx, env, out);
}

}  // namespace gpudoctor
