// The NVIDIA driver install for this machine (see nvidia_driver_install.h).
#include "rules/nvidia_driver_install.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr const char* kNvidiaDriverGuide =
    "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/";
constexpr const char* kWindowsDriverPage = "https://www.nvidia.com/drivers";

// A line of a [[nvidia_driver_install]] row: one starting with "sudo " is a command, any other words.
FixAction RowAction(const std::string& line) {
  return line.starts_with("sudo ") ? FixAction::Bash(line) : FixAction::Manual(line);
}

}  // namespace

std::optional<LastBranch> LastBranchOf(const RuleContext& ctx) {
  for (const auto& g : ctx.gpus) {
    if (g.vendor != GpuVendor::kNvidia || !g.cc) continue;
    const CudaArch* arch = ctx.db.FindCudaArch(*g.cc);
    if (!arch) continue;
    for (const auto& b : ctx.db.nvidia_driver_branches) {
      if (!Contains(b.last_for, arch->architecture)) continue;
      auto number = Version::Parse(std::string_view(b.branch).substr(1));  // "R580" -> 580
      if (number) return LastBranch{&b, &g, arch->architecture, number->major()};
    }
  }
  return std::nullopt;
}

std::optional<OpenModulesGpu> OpenModulesOnlyGpu(const RuleContext& ctx) {
  for (const auto& g : ctx.gpus) {
    if (g.vendor != GpuVendor::kNvidia || !g.cc) continue;
    const CudaArch* arch = ctx.db.FindCudaArch(*g.cc);
    if (!arch) continue;
    for (const NvidiaOpenModulesOnly& o : ctx.db.nvidia_open_modules_only)
      if (o.architecture == arch->architecture) return OpenModulesGpu{&g, &o};
  }
  return std::nullopt;
}

std::vector<FixAction> BranchDriverInstall(const RuleContext& ctx, const LastBranch& last) {
  const std::string n = std::to_string(last.number);
  if (ctx.platform == Platform::kWindows) {
    // Windows numbers a branch's drivers past the branch (R580: 580.xx and 581.xx).
    std::string numbers = n + ".xx";
    for (const NvidiaWindowsBranch& w : ctx.db.nvidia_windows_branches) {
      if (w.branch != last.branch->branch) continue;
      numbers.clear();
      for (uint32_t m : w.majors) numbers += (numbers.empty() ? "" : " or ") + std::to_string(m) + ".xx";
    }
    return {FixAction::Manual("download the newest " + last.branch->branch + " (" + numbers +
                              ") driver for your GPU from " + kWindowsDriverPage)};
  }
  // Ubuntu's own way to one branch (its server guide: ubuntu-drivers, signed prebuilt modules).
  if (IsUbuntuFamily(ctx.snap.os.distro_id))
    return {FixAction::Bash("sudo ubuntu-drivers install nvidia:" + n)};
  return {FixAction::Manual("install the " + n +
                            " branch of the NVIDIA driver packaged for your distribution (not a newer one)")};
}

// Debian's own NVIDIA packages (bookworm 535, trixie 550) predate the branch a GPU only the open modules
// drive needs (Blackwell: R570), and backports has none newer: the open modules come from NVIDIA's CUDA
// repository for Debian (its driver installation guide: contrib enabled, cuda-keyring, nvidia-open).
std::vector<FixAction> DebianNvidiaRepoOpen(const RuleContext& ctx, const NvidiaOpenModulesOnly& only) {
  const std::string& version = ctx.snap.os.distro_version;
  const std::string repo =
      "debian" + (version.empty() ? std::string("12") : version.substr(0, version.find('.')));
  const std::string branch = only.first_branch.empty() ? "a newer branch" : only.first_branch + " or newer";
  return {FixAction::Manual("Debian's own NVIDIA driver packages are too old for " + only.architecture +
                            " GPUs, which need the open kernel modules of " + branch +
                            ": install them from NVIDIA's CUDA repository for Debian"),
          FixAction::Manual("first enable the contrib component (NVIDIA's packages need it): add \"contrib\" "
                            "after \"main\" in /etc/apt/sources.list (or the Components line of "
                            "/etc/apt/sources.list.d/debian.sources)"),
          FixAction::Bash("wget https://developer.download.nvidia.com/compute/cuda/repos/" + repo +
                          "/x86_64/cuda-keyring_1.1-1_all.deb"),
          FixAction::Bash("sudo dpkg -i cuda-keyring_1.1-1_all.deb"),
          FixAction::Bash("sudo apt update"),
          FixAction::Bash("sudo apt install nvidia-open")};
}

std::vector<FixAction> OpenModulesInstall(const RuleContext& ctx, const std::string& branch) {
  const NvidiaDriverInstall* how =
      ctx.db.FindNvidiaDriverInstall(ctx.snap.os.distro_id, ctx.snap.os.distro_id_like);
  if (how && how->open_lines.empty()) how = ctx.db.FindNvidiaDriverInstall("*", {});
  std::vector<FixAction> out;
  if (!how) return out;
  for (std::string line : how->open_lines) {
    if (size_t at = line.find("BRANCH"); at != std::string::npos) line.replace(at, 6, branch);
    out.push_back(RowAction(line));
  }
  return out;
}

NvidiaDriverInstallSteps NvidiaDriverInstallFor(const RuleContext& ctx) {
  NvidiaDriverInstallSteps out;
  if (auto last = LastBranchOf(ctx)) {
    out.where = "within the " + last->branch->branch + " branch (the last for " + last->architecture +
                ": newer branches drop it)";
    out.actions = BranchDriverInstall(ctx, *last);
    out.last = last;
    return out;
  }
  if (ctx.platform == Platform::kWindows) {
    out.actions = {
        FixAction::Manual(std::string("download the newest driver for your GPU from ") + kWindowsDriverPage)};
    return out;
  }
  const std::string& distro = ctx.snap.os.distro_id;
  if (auto open_only = OpenModulesOnlyGpu(ctx); open_only && distro == "debian") {
    out.where = "on Debian, from NVIDIA's CUDA repository";
    out.actions = DebianNvidiaRepoOpen(ctx, *open_only->only);
    out.link = kNvidiaDriverGuide;
    return out;
  }
  const NvidiaDriverInstall* how = ctx.db.FindNvidiaDriverInstall(distro, ctx.snap.os.distro_id_like);
  if (!how) {
    out.actions = {FixAction::Manual("install the NVIDIA driver packaged for your distribution")};
    out.link = kNvidiaDriverGuide;
    return out;
  }
  out.where = "on " + how->name;
  for (const std::string& line : how->lines) out.actions.push_back(RowAction(line));
  out.link = how->link;
  return out;
}

std::vector<std::string> ActionLines(const std::vector<FixAction>& actions) {
  std::vector<std::string> out;
  for (const FixAction& a : actions)
    out.push_back(a.kind == FixAction::Kind::kManual ? a.text : a.commands.bash);
  return out;
}

}  // namespace gpudoctor
