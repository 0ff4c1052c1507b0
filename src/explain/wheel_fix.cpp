// The install command for the log's machine (see wheel_fix.h). Pure functions of the log's facts, a
// Snapshot and the knowledge base; nothing here knows a variant or URL of its own.
#include "explain/wheel_fix.h"

#include <algorithm>

#include "core/strings.h"
#include "explain/explain_facts.h"
#include "knowledge/cuda_arch_name.h"
#include "knowledge/torch_wheel_lookup.h"

namespace gpudoctor {
namespace {

// Bytes around an sm_XX name within which another makes it part of a list ("supports CUDA capabilities
// sm_50 sm_60 sm_70"): the build's targets, not the GPU.
constexpr size_t kWheelListReach = 12;

bool InSmList(const std::string& excerpt, const std::string& value) {
  const size_t at = excerpt.find(value);
  if (at == std::string::npos) return false;
  if (at > 0) {
    const size_t before = excerpt.rfind("sm_", at - 1);
    if (before != std::string::npos && at - before <= kWheelListReach + 6) return true;
  }
  const size_t after = excerpt.find("sm_", at + value.size());
  return after != std::string::npos && after - (at + value.size()) <= kWheelListReach;
}

struct NvidiaGpu {
  Version cc;
  std::string from;
};

std::optional<NvidiaGpu> LogNvidiaGpu(const ExplainMatch& match, const std::vector<LogFact>& facts,
                                      const KnowledgeDb& db) {
  if (const std::string sm = match.Capture("sm"); !sm.empty())
    if (auto cc = ComputeCapabilityOf(sm))
      return NvidiaGpu{*cc, sm + " (the message, line " + std::to_string(match.first_line) + ")"};
  for (const LogFact& f : facts)
    if (f.kind == "sm" && !InSmList(f.excerpt, f.value))
      if (auto cc = ComputeCapabilityOf(f.value))
        return NvidiaGpu{*cc, (StartsWith(f.value, "sm_") ? f.value : "compute capability " + f.value) +
                                  " (the log, line " + std::to_string(f.line) + ")"};
  for (const LogFact& f : facts) {
    if (f.kind != "gpu") continue;
    std::string name = StartsWith(f.value, "NVIDIA ") ? f.value.substr(7) : f.value;
    for (const NvidiaGpuModel& m : db.nvidia_gpus)
      if (m.name == name)
        return NvidiaGpu{m.cc, "the log's GPU " + f.value + " (line " + std::to_string(f.line) + ", " +
                                   SmName(m.cc) + ")"};
  }
  return std::nullopt;
}

std::optional<NvidiaGpu> MachineNvidiaGpu(const Snapshot& snap) {
  for (const Gpu& g : snap.gpus) {
    if (g.vendor != GpuVendor::kNvidia) continue;
    if (auto cc = ComputeCapabilityOf(g.architecture))
      return NvidiaGpu{*cc, "this machine's GPU " + (g.name.empty() ? g.pci_address : g.name) + " (" +
                                g.architecture + ")"};
  }
  return std::nullopt;
}

// An NVIDIA driver version the log states (Adrenalin versions have a two-digit major).
std::optional<Version> LogNvidiaDriver(const std::vector<LogFact>& facts) {
  for (const LogFact& f : facts)
    if (f.kind == "driver")
      if (auto v = Version::Parse(f.value); v && v->major() >= 100) return v;
  return std::nullopt;
}

// "3.12.3" -> "3.12".
std::string PythonSeries(const std::vector<LogFact>& facts) {
  for (const LogFact& f : facts) {
    if (f.kind != "python") continue;
    auto v = Version::Parse(f.value);
    if (v) return std::to_string(v->major()) + "." + std::to_string(v->minor());
  }
  return "";
}

bool ListHas(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::string Join(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void ReplaceFirst(std::string& s, const std::string& from, const std::string& to) {
  if (size_t at = s.find(from); at != std::string::npos) s.replace(at, from.size(), to);
}

// The route's command in the platform's shell and interpreter, with --force-reinstall when asked.
std::string Command(const TorchRoute& route, const FixPlatform& platform, const std::string& gfx,
                    bool reinstall, const KnowledgeDb& db, const std::string& variant) {
  std::string cmd = FillRouteCommand(route, platform.windows ? "powershell" : "bash", gfx, db);
  if (!variant.empty())
    for (size_t at = cmd.find("{variant}"); at != std::string::npos; at = cmd.find("{variant}"))
      cmd.replace(at, 9, variant);
  if (reinstall) ReplaceFirst(cmd, "-m pip install ", "-m pip install --force-reinstall ");
  if (platform.portable) {
    ReplaceFirst(cmd, "py -m pip", ".\\python_embeded\\python.exe -m pip");
    ReplaceFirst(cmd, "python3 -m pip", ".\\python_embeded\\python.exe -m pip");
  }
  return cmd;
}

void SetCommand(WheelFix& fix, const FixPlatform& platform, const std::string& cmd) {
  (platform.windows ? fix.commands.powershell : fix.commands.bash) = cmd;
}

// NVIDIA: the newest release's best CUDA wheel for the GPU; when the log's Python has no wheel there, the
// newest release that has one, pinned with its torchvision and torchaudio.
std::optional<WheelFix> NvidiaFix(const NvidiaGpu& gpu, const std::vector<LogFact>& facts,
                                  FixPlatform platform, bool reinstall, const KnowledgeDb& db) {
  const TorchRoute* route = db.FindRoute("pytorch-cuda");
  const std::optional<Version> driver = LogNvidiaDriver(facts);
  const TorchWheel* newest = BestCudaWheel(db, gpu.cc, driver, std::nullopt, platform.windows);
  WheelFix fix;
  fix.gpu = gpu.from;
  fix.python = PythonSeries(facts);
  if (newest == nullptr || route == nullptr) {
    fix.advice = "No recorded pytorch.org CUDA wheel has code for " + SmName(gpu.cc) +
                 (driver ? " that driver " + driver->ToString() + " can run" : std::string()) +
                 ": build from source with TORCH_CUDA_ARCH_LIST=" + gpu.cc.ToString() +
                 (driver ? ", or update the driver" : std::string()) + ".";
    return fix;
  }
  const TorchWheel* wheel = newest;
  std::string python_note;
  if (!fix.python.empty() && !ListHas(newest->python, fix.python)) {
    std::vector<const TorchRelease*> releases;
    for (const TorchRelease& r : db.torch_releases)
      if (ListHas(r.python, fix.python)) releases.push_back(&r);
    std::sort(releases.begin(), releases.end(),
              [](const TorchRelease* a, const TorchRelease* b) { return a->version > b->version; });
    const TorchWheel* older = nullptr;
    for (const TorchRelease* r : releases)
      if ((older = BestCudaWheel(db, gpu.cc, driver, r->version, platform.windows)) != nullptr) break;
    python_note = "torch " + newest->torch.ToString() + " has wheels for Python " + Join(newest->python) +
                  ", not " + fix.python;
    if (older != nullptr) {
      wheel = older;
      python_note += "; torch " + older->torch.ToString() + " is the newest with a " + fix.python +
                     " wheel for this GPU (or make a venv with a newer Python and use torch " +
                     newest->torch.ToString() + ")";
    } else {
      python_note += ", and no recorded torch has a " + fix.python +
                     " wheel for this GPU: make a venv with one of those Pythons";
    }
  }
  fix.variant = wheel->variant;
  fix.index_url = wheel->index_url;
  fix.torch = wheel->torch.ToString();
  fix.advice = "For " + gpu.from + ": torch " + fix.torch + " " + fix.variant + " (" + fix.index_url + ", " +
               DataWhere(wheel->provenance) + ") has code that runs on " + SmName(gpu.cc) +
               (driver ? " with driver " + driver->ToString() : std::string()) + ".";
  if (!python_note.empty()) fix.advice += " " + python_note + ".";
  std::string cmd = Command(*route, platform, "", reinstall, db, wheel->variant);
  if (wheel != newest) {
    std::string pins = "\"torch==" + fix.torch + ".*\"";
    if (const TorchCompanion* c = db.FindTorchCompanion(wheel->torch)) {
      if (!c->torchvision.empty()) pins += " \"torchvision==" + c->torchvision.front().ToString() + ".*\"";
      if (!c->torchaudio.empty()) pins += " \"torchaudio==" + c->torchaudio.front().ToString() + ".*\"";
    }
    ReplaceFirst(cmd, "torch torchvision torchaudio", pins);
  }
  SetCommand(fix, platform, cmd);
  return fix;
}

std::optional<WheelFix> AmdFix(const FixTarget& target, const std::vector<LogFact>& facts,
                               FixPlatform platform, bool reinstall, const KnowledgeDb& db) {
  WheelFix fix;
  fix.gpu = target.gfx + " (" + target.from + ")";
  fix.python = PythonSeries(facts);
  auto routes = AmdRoutesCarrying(db, target.gfx, platform.windows ? Platform::kWindows : Platform::kLinux);
  if (routes.empty()) {
    fix.advice = "No recorded PyTorch build carries " + target.gfx + " on " +
                 (platform.windows ? "Windows" : "Linux") +
                 " (gpudoctor check on that machine says what can).";
    return fix;
  }
  const TorchRoute* route = routes.front();
  if (route->wheels == "rocm")
    if (const TorchWheel* w = NewestRocmWheelWithGfx(db, target.gfx)) {
      fix.variant = w->variant;
      fix.index_url = w->index_url;
      fix.torch = w->torch.ToString();
    }
  fix.advice = "For " + fix.gpu + ": " + route->name + " (" + ToString(route->status) + ", " +
               DataWhere(route->provenance) + ")" +
               (fix.variant.empty() ? "" : ", torch " + fix.torch + " " + fix.variant) + ".";
  if (!fix.python.empty() && !route->python.empty() && !ListHas(route->python, fix.python))
    fix.advice += " It has wheels for Python " + Join(route->python) + ", not " + fix.python +
                  ": make a venv with one of those first.";
  SetCommand(fix, platform, Command(*route, platform, target.gfx, reinstall, db, fix.variant));
  return fix;
}

// No GPU named, but the log states its Python: which torch releases have wheels for it, against the
// release a pip requirement pins ("torch==2.1.0+cu118").
std::optional<WheelFix> PythonFix(const ExplainMatch& match, const std::vector<LogFact>& facts,
                                  FixPlatform platform, const KnowledgeDb& db) {
  WheelFix fix;
  fix.python = PythonSeries(facts);
  const TorchRelease* newest = NewestTorchRelease(db);
  std::string requirement = match.Capture("requirement");
  const TorchRelease* pinned = nullptr;
  if (StartsWith(requirement, "torch==")) {
    std::string v = requirement.substr(7);
    v = v.substr(0, v.find_first_of("+,;"));
    if (auto parsed = Version::Parse(v)) pinned = db.FindTorchRelease(*parsed);
  }
  // The log states no Python: the pinned release's Pythons are what a working install needs.
  if (fix.python.empty() && pinned != nullptr) {
    fix.advice = "torch " + pinned->version.ToString() + " has wheels for Python " + Join(pinned->python) +
                 " only (" + DataWhere(pinned->provenance) +
                 "): check python --version, and make a venv with one of those, or drop the pin.";
    return fix;
  }
  if (fix.python.empty() || newest == nullptr) return std::nullopt;
  if (pinned != nullptr && !ListHas(pinned->python, fix.python))
    fix.advice = "torch " + pinned->version.ToString() + " has wheels for Python " + Join(pinned->python) +
                 ", not " + fix.python + " (" + DataWhere(pinned->provenance) + "). ";
  if (ListHas(newest->python, fix.python)) {
    fix.advice +=
        "torch " + newest->version.ToString() + " has wheels for Python " + fix.python +
        (pinned != nullptr && !ListHas(pinned->python, fix.python)
             ? ": drop the old pin, or use a Python that release has"
             : ": the version pinned or the index is what pip could not find; use the index URL of the "
               "GPU build and a version it has") +
        ".";
    return fix;
  }
  const TorchRelease* last = nullptr;
  for (const TorchRelease& r : db.torch_releases)
    if (ListHas(r.python, fix.python) && (last == nullptr || r.version > last->version)) last = &r;
  fix.advice += "The newest torch, " + newest->version.ToString() + ", has wheels for Python " +
                Join(newest->python) + ", not " + fix.python +
                (last != nullptr
                     ? "; torch " + last->version.ToString() + " is the newest with " + fix.python + " wheels"
                     : "; no recorded release has " + fix.python + " wheels") +
                ". Make a virtual environment with a Python the wheels have.";
  const std::string py =
      newest->python.size() >= 2 ? newest->python[newest->python.size() - 2] : newest->python.back();
  if (platform.windows)
    fix.commands.powershell = "py -" + py + " -m venv .venv; .venv\\Scripts\\Activate.ps1";
  else
    fix.commands.bash = "uv venv --python " + py + " .venv && . .venv/bin/activate";
  return fix;
}

}  // namespace

std::optional<WheelFix> WheelFixFor(const ExplainMatch& match, const std::vector<LogFact>& log_facts,
                                    const Snapshot& machine, TargetMachineUse use, FixPlatform platform,
                                    bool reinstall, const KnowledgeDb& db) {
  // This machine first with --here; then the log's GPU (NVIDIA or AMD); then this machine's when the log
  // is from it and names none.
  const std::vector<LogFact> none;
  auto machine_fix = [&]() -> std::optional<WheelFix> {
    if (auto nv = MachineNvidiaGpu(machine)) return NvidiaFix(*nv, log_facts, platform, reinstall, db);
    auto amd = ChooseFixTargets(ExplainMatch{}, none, machine, TargetMachineUse::kMachineFirst, db);
    if (!amd.empty()) return AmdFix(amd.front(), log_facts, platform, reinstall, db);
    return std::nullopt;
  };
  if (use == TargetMachineUse::kMachineFirst)
    if (auto fix = machine_fix()) return fix;
  if (auto nv = LogNvidiaGpu(match, log_facts, db)) return NvidiaFix(*nv, log_facts, platform, reinstall, db);
  auto amd = ChooseFixTargets(match, log_facts, machine, TargetMachineUse::kLogOnly, db);
  if (!amd.empty()) return AmdFix(amd.front(), log_facts, platform, reinstall, db);
  if (use == TargetMachineUse::kLogThenMachine)
    if (auto fix = machine_fix()) return fix;
  // A pip failure with no GPU named: which Pythons the torch wheels have.
  if (!match.Capture("requirement").empty()) return PythonFix(match, log_facts, platform, db);
  return std::nullopt;
}

}  // namespace gpudoctor
