// The target-dependent fix (see target_fix.h). Pure functions of the log's facts, a Snapshot and the
// knowledge base: every value shown comes from data/overrides.toml, data/pytorch_wheels.toml or
// data/pytorch_routes.toml, with the entry it came from.
#include "explain/target_fix.h"

#include <algorithm>

#include "core/strings.h"
#include "explain/explain_facts.h"
#include "knowledge/torch_wheel_lookup.h"

namespace gpudoctor {
namespace {

// Bytes around a gfx name within which another gfx name makes it part of a list ("[gfx1030 gfx1100",
// "gfx900;gfx906"), which names what a build carries, not the GPU.
constexpr size_t kListReach = 24;

bool InList(const std::string& excerpt, const std::string& value) {
  const size_t at = excerpt.find(value);
  if (at == std::string::npos) return false;
  const size_t before = excerpt.rfind("gfx", at == 0 ? 0 : at - 1);
  if (at > 0 && before != std::string::npos && before < at && at - before <= kListReach + 3) return true;
  const size_t after = excerpt.find("gfx", at + value.size());
  return after != std::string::npos && after - (at + value.size()) <= kListReach;
}

// The gfx target of a GPU name as the log writes it ("AMD Radeon RX 6600"), from the PCI table's names
// and the spec table; "" when the name is not recorded.
std::string GfxOfName(std::string name, const KnowledgeDb& db) {
  if (StartsWith(name, "AMD ")) name = name.substr(4);
  if (const AmdGpuModel* m = db.FindAmdModelByName(name); m != nullptr && !m->gfx.empty()) return m->gfx;
  for (const AmdPciDevice& d : db.amd_devices) {
    if (d.name == name) return d.gfx;
    for (const AmdRevisionName& r : d.revisions)
      if (r.name == name) return d.gfx;
  }
  return "";
}

// "1002:73df" -> the device's gfx target; "" for NVIDIA ids and ids not recorded.
std::string GfxOfPciId(const std::string& id, const KnowledgeDb& db) {
  if (ToLower(id).rfind("1002:", 0) != 0) return "";
  auto device = ParseHex(id.substr(5));
  if (!device) return "";
  auto match = db.FindAmdModel(static_cast<uint32_t>(*device), std::nullopt);
  return match && match->device != nullptr ? match->device->gfx : "";
}

void Add(std::vector<FixTarget>& out, const std::string& gfx, const std::string& from,
         const std::string& not_this, const KnowledgeDb& db) {
  if (gfx.empty() || gfx == not_this || db.FindGfxTarget(gfx) == nullptr) return;
  for (const FixTarget& t : out)
    if (t.gfx == gfx) return;
  if (out.size() < kMaxFixTargets) out.push_back(FixTarget{gfx, from});
}

void AddLogTargets(const ExplainMatch& match, const std::vector<LogFact>& facts,
                   const std::string& overridden, const KnowledgeDb& db, std::vector<FixTarget>& out) {
  Add(out, match.Capture("gfx"), "the message, line " + std::to_string(match.first_line), overridden, db);
  for (const LogFact& f : facts)
    if (f.kind == "gfx" && !InList(f.excerpt, f.value))
      Add(out, f.value, "the log, line " + std::to_string(f.line), overridden, db);
  for (const LogFact& f : facts) {
    if (f.kind == "gpu")
      Add(out, GfxOfName(f.value, db), "the log's GPU " + f.value + " (line " + std::to_string(f.line) + ")",
          overridden, db);
    if (f.kind == "pci_id")
      Add(out, GfxOfPciId(f.value, db),
          "the log's PCI id " + f.value + " (line " + std::to_string(f.line) + ")", overridden, db);
  }
}

void AddMachineTargets(const Snapshot& snap, const KnowledgeDb& db, std::vector<FixTarget>& out) {
  for (const Gpu& g : snap.gpus)
    if (g.vendor == GpuVendor::kAmd)
      Add(out, g.architecture,
          "this machine's GPU " + (g.name.empty() ? g.pci_address : g.name + " (" + g.pci_address + ")"), "",
          db);
}

// The pitfall that forbids any override on `gfx` (gfx1033, RDNA1), or nullptr.
const OverridePitfall* ForbiddingPitfall(const std::string& gfx, const KnowledgeDb& db) {
  if (const OverridePitfall* p = db.FindNativeWrongPitfall(gfx)) return p;
  for (const OverridePitfall& p : db.override_pitfalls)
    if (p.when == PitfallWhen::kListed && std::find(p.gfx.begin(), p.gfx.end(), gfx) != p.gfx.end())
      return &p;
  return nullptr;
}

// The most official route carrying `gfx` and its filled command for the shell; nullptr when none.
const TorchRoute* BestRoute(const std::string& gfx, bool windows, const KnowledgeDb& db,
                            std::string& command) {
  auto routes = AmdRoutesCarrying(db, gfx, windows ? Platform::kWindows : Platform::kLinux);
  if (routes.empty()) return nullptr;
  command = FillRouteCommand(*routes.front(), windows ? "powershell" : "bash", gfx, db);
  return routes.front();
}

// Whether `rank` puts the kind of build `route` is (official or preview: native; nightly or community:
// community) before the override.
bool BuildBeforeOverride(const FixRanking& rank, const TorchRoute& route) {
  const bool native = route.status == RouteStatus::kOfficial || route.status == RouteStatus::kPreview;
  const bool community = route.status == RouteStatus::kNightly || route.status == RouteStatus::kCommunity;
  for (TargetFixKind k : rank.order) {
    if (k == TargetFixKind::kOverride) return false;
    if ((k == TargetFixKind::kNativeBuild && native) || (k == TargetFixKind::kCommunityBuild && community))
      return true;
  }
  return false;
}

std::string RouteSentence(const TorchRoute& route) {
  return route.name + " (" + ToString(route.status) + ", " + DataWhere(route.provenance) + ")";
}

void AppendLine(std::string& commands, const std::string& line) {
  if (line.empty()) return;
  commands += (commands.empty() ? "" : "\n") + line;
}

TargetFix WindowsFix(const FixTarget& target, const KnowledgeDb& db) {
  TargetFix fix{target.gfx, target.from, "", {}};
  const std::string& gfx = target.gfx;
  if (const OverridePitfall* wrong = db.FindNativeWrongPitfall(gfx)) {
    fix.advice = "No build helps " + gfx + ": " + wrong->problem + ". " + wrong->fix + " (" +
                 DataWhere(wrong->provenance) + ").";
    return fix;
  }
  fix.advice =
      "On native Windows HSA_OVERRIDE_GFX_VERSION does nothing (the HIP runtime in the driver ignores it): "
      "use a build that carries " +
      gfx + " itself. ";
  std::string command;
  if (const TorchRoute* r = BestRoute(gfx, true, db, command)) {
    fix.advice += "For " + gfx + ": " + RouteSentence(*r) + ".";
    fix.commands.powershell = command;
  } else {
    fix.advice += "No recorded Windows build carries " + gfx + "; WSL2 or Linux may (gpudoctor check there).";
  }
  return fix;
}

}  // namespace

std::vector<const TorchRoute*> AmdRoutesCarrying(const KnowledgeDb& db, const std::string& gfx, Platform os) {
  std::vector<const TorchRoute*> out;
  if (db.FindNativeWrongPitfall(gfx) != nullptr) return out;  // no route is safe (hardware.gpu_wrong_results)
  for (const TorchRoute& r : db.torch_routes) {
    if (r.vendor != RouteVendor::kAmd || r.status == RouteStatus::kSuperseded) continue;
    if (std::find(r.os.begin(), r.os.end(), os) == r.os.end()) continue;
    if (!r.gfx_any && std::find(r.gfx.begin(), r.gfx.end(), gfx) == r.gfx.end()) continue;
    if (r.wheels == "rocm" && NewestRocmWheelWithGfx(db, gfx) == nullptr) continue;
    const std::string shell = os == Platform::kWindows ? "powershell" : "bash";
    if (FillRouteCommand(r, shell, gfx, db).find('{') != std::string::npos) continue;  // a placeholder left
    out.push_back(&r);
  }
  std::stable_sort(out.begin(), out.end(), [](const TorchRoute* a, const TorchRoute* b) {
    return static_cast<int>(a->status) < static_cast<int>(b->status);
  });
  return out;
}

std::vector<FixTarget> ChooseFixTargets(const ExplainMatch& match, const std::vector<LogFact>& log_facts,
                                        const Snapshot& machine, TargetMachineUse use,
                                        const KnowledgeDb& db) {
  // An override stated in the log makes the runtime name the target it selects, not the GPU's own.
  std::string overridden;
  for (const LogFact& f : log_facts)
    if (f.kind == "override") overridden = GfxNameFromOverride(f.value).value_or("");
  std::vector<FixTarget> out;
  if (use == TargetMachineUse::kMachineFirst) AddMachineTargets(machine, db, out);
  AddLogTargets(match, log_facts, overridden, db, out);
  if (use == TargetMachineUse::kLogThenMachine && out.empty()) AddMachineTargets(machine, db, out);
  return out;
}

TargetFix FixForTarget(const FixTarget& target, bool windows, const KnowledgeDb& db) {
  if (windows) return WindowsFix(target, db);
  TargetFix fix{target.gfx, target.from, "", {}};
  const std::string& gfx = target.gfx;
  std::string route_command;
  const TorchRoute* route = BestRoute(gfx, false, db, route_command);
  const TorchWheel* wheel = NewestRocmWheelWithGfx(db, gfx);

  if (const OverridePitfall* no = ForbiddingPitfall(gfx, db)) {
    fix.advice = "No HSA_OVERRIDE_GFX_VERSION for " + gfx + ": " + no->problem + ". " + no->fix + " (" +
                 DataWhere(no->provenance) + ").";
    fix.commands.bash = "unset HSA_OVERRIDE_GFX_VERSION";
    if (route != nullptr && !no->native_wrong) {
      fix.advice += " A build made for " + gfx + ": " + RouteSentence(*route) + ".";
      AppendLine(fix.commands.bash, route_command);
    }
    return fix;
  }
  const OverrideRule* rule = db.FindOverrideRule(gfx);
  if (rule != nullptr && !(wheel != nullptr && rule->native_wheels.empty())) {
    const std::string borrowed = GfxNameFromOverride(rule->value).value_or("?");
    const std::string override_line =
        "HSA_OVERRIDE_GFX_VERSION=" + rule->value + " makes " + gfx + " run the code built for " + borrowed +
        " (" + OverrideVerdictText(rule->verdict) + ", " + DataWhere(rule->provenance) + ")";
    if (!rule->native_wheels.empty() && wheel != nullptr) {
      fix.advice = "PyTorch's " + wheel->variant + " wheels (torch " + wheel->torch.ToString() + ") carry " +
                   gfx + " itself (from " + db.FirstNativeWheel(*rule, gfx) +
                   " on): install them and set no override. Only on an "
                   "older build: " +
                   override_line + ".";
      AppendLine(fix.commands.bash, "unset HSA_OVERRIDE_GFX_VERSION");
      AppendLine(fix.commands.bash, route_command);
      AppendLine(fix.commands.bash, "# only on a build older than " + db.FirstNativeWheel(*rule, gfx) + ":");
      AppendLine(fix.commands.bash, "# export HSA_OVERRIDE_GFX_VERSION=" + rule->value);
    } else if (const FixRanking* rank = db.FindFixRanking(FixSituation::kCodeLacksTarget, gfx);
               route != nullptr && rank != nullptr && BuildBeforeOverride(*rank, *route)) {
      // The data ranks a build made for the target before borrowing a sibling's code (a risky override).
      fix.advice = "A build made for " + gfx + " comes first (" + DataWhere(rank->provenance) +
                   "): " + RouteSentence(*route) + ". Only without one: " + override_line + ".";
      if (rule->verdict == OverrideVerdict::kRisky && !rule->provenance.note.empty())
        fix.advice += " Why risky: " + rule->provenance.note + ".";
      AppendLine(fix.commands.bash, "unset HSA_OVERRIDE_GFX_VERSION");
      AppendLine(fix.commands.bash, route_command);
      AppendLine(fix.commands.bash, "# only without a build made for " + gfx + ":");
      AppendLine(fix.commands.bash, "# export HSA_OVERRIDE_GFX_VERSION=" + rule->value);
    } else {
      fix.advice = override_line + "; export it before the program starts.";
      if (rule->verdict == OverrideVerdict::kRisky && !rule->provenance.note.empty())
        fix.advice += " Why risky: " + rule->provenance.note + ".";
      if (route != nullptr)
        fix.advice += " Or install a build made for " + gfx + ": " + RouteSentence(*route) + ".";
      fix.commands.bash = "export HSA_OVERRIDE_GFX_VERSION=" + rule->value;
    }
    return fix;
  }
  if (wheel != nullptr) {
    fix.advice = gfx + " needs no override: PyTorch's " + wheel->variant + " wheels (torch " +
                 wheel->torch.ToString() + ") carry it. Install a build made for " + gfx +
                 " and unset HSA_OVERRIDE_GFX_VERSION if it is set" +
                 (route != nullptr ? ": " + RouteSentence(*route) : std::string()) + ".";
    fix.commands.bash = "unset HSA_OVERRIDE_GFX_VERSION";
    AppendLine(fix.commands.bash, route_command);
    return fix;
  }
  if (const GpuTarget* t = db.FindGfxTarget(gfx); t != nullptr && !t->override_value.empty()) {
    fix.advice = gfx + " can borrow the code of HSA_OVERRIDE_GFX_VERSION=" + t->override_value +
                 " (no tested rule is recorded: unverified, " + DataWhere(t->provenance) + ").";
    if (route != nullptr)
      fix.advice += " Safer: a build made for " + gfx + ": " + RouteSentence(*route) + ".";
    fix.commands.bash =
        route != nullptr ? route_command : "export HSA_OVERRIDE_GFX_VERSION=" + t->override_value;
    return fix;
  }
  fix.advice = "No HSA_OVERRIDE_GFX_VERSION value is known for " + gfx + ": use a build that carries " + gfx +
               (route != nullptr ? ": " + RouteSentence(*route) : std::string(" (none is recorded)")) + ".";
  fix.commands.bash = route_command;
  return fix;
}

TargetFix FixForUnknownTarget(bool windows) {
  TargetFix fix;
  if (windows) {
    fix.advice =
        "The log does not say which GPU this is. On native Windows HSA_OVERRIDE_GFX_VERSION does nothing: "
        "find the "
        "GPU's name, then install a build that carries its target (gpudoctor check on that machine names "
        "it).";
    fix.commands.powershell = "Get-CimInstance Win32_VideoController | Select-Object Name";
    return fix;
  }
  fix.advice =
      "The log does not say which gfx target the GPU is, and the HSA_OVERRIDE_GFX_VERSION value depends on "
      "it "
      "(some targets have none: a wrong value gives faults or wrong results). Find the target on the machine "
      "that failed, then run gpudoctor explain again with that line, or gpudoctor check there.";
  fix.commands.bash = "rocminfo | grep -m1 -o 'gfx[0-9a-f]*'";
  return fix;
}

}  // namespace gpudoctor
