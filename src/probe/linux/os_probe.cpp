// The Linux machine probe: distribution, kernel, WSL2, container and virtual-machine evidence, CPU, RAM, free
// disk of the home folder and host name, each read through the sysroot and each failure one warning line.
#include "probe/linux/os_probe.h"

#include <optional>
#include <string>

#include "core/strings.h"
#include "probe/common/virtual_machine.h"
#include "probe/linux/procfs_parse.h"

namespace gpudoctor {
namespace {

// Reads a small text file, recording that it was examined. Missing files are silent when `optional`.
std::optional<std::string> ReadText(const ProbeContext& ctx, Snapshot& snap, const char* path,
                                    bool optional) {
  snap.looked_at.push_back(path);
  if (optional && !ctx.fs.Exists(path)) return std::nullopt;
  auto text = ctx.fs.ReadFile(path, 1 << 20);
  if (!text.ok()) {
    snap.warnings.push_back(text.error().message);
    return std::nullopt;
  }
  return std::move(text).value();
}

void ProbeDistribution(const ProbeContext& ctx, Snapshot& snap) {
  // os-release(5): /etc/os-release first, /usr/lib/os-release as the fallback.
  for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
    auto text = ReadText(ctx, snap, path, /*optional=*/true);
    if (!text) continue;
    auto release = ParseOsRelease(*text);
    if (!release.ok()) {
      snap.warnings.push_back(std::string(path) + ": " + release.error().message);
      continue;
    }
    snap.os.distro_id = release->id;
    snap.os.distro_name = release->pretty_name;
    snap.os.distro_version = release->version_id;
    snap.os.distro_id_like = release->id_like;
    return;
  }
  snap.warnings.push_back(
      "no readable os-release (/etc/os-release, /usr/lib/os-release): distribution unknown");
}

void ProbeKernel(const ProbeContext& ctx, Snapshot& snap) {
  if (auto release = ReadText(ctx, snap, "/proc/sys/kernel/osrelease", false)) {
    std::string_view trimmed = Trim(*release);
    if (LooksLikeVersion(trimmed))
      snap.os.kernel_release = std::string(trimmed);
    else
      snap.warnings.push_back("/proc/sys/kernel/osrelease does not hold a kernel release");
  }
  if (auto text = ReadText(ctx, snap, "/proc/version", false)) {
    auto lines = SplitLines(*text);
    snap.os.kernel_version_text = lines.empty() ? "" : std::string(Trim(lines.front()).substr(0, 512));
    if (snap.os.kernel_release.empty()) {
      if (auto release = KernelReleaseFromVersionText(*text)) snap.os.kernel_release = *release;
    }
  }
}

void ProbeWsl(const ProbeContext& ctx, Snapshot& snap) {
  OsInfo& os = snap.os;
  if (KernelVersionTextMentionsWsl(os.kernel_version_text)) {
    os.wsl_evidence.push_back("/proc/version names a Microsoft (WSL) kernel");
    os.wsl = true;
  }
  snap.looked_at.push_back("/dev/dxg");
  if (ctx.fs.Exists("/dev/dxg")) {
    os.wsl_evidence.push_back("/dev/dxg exists");
    os.wsl = true;
  }
  // The Windows driver's Linux libraries; on its own it is a hint, not proof (a copied tree may hold it).
  snap.looked_at.push_back("/usr/lib/wsl/lib");
  if (ctx.fs.IsDir("/usr/lib/wsl/lib")) os.wsl_evidence.push_back("/usr/lib/wsl/lib exists");
}

void ProbeContainer(const ProbeContext& ctx, Snapshot& snap) {
  OsInfo& os = snap.os;
  std::optional<std::string> kind;
  // The first strong hint names the runtime; later ones only add evidence.
  auto hint = [&](const std::string& runtime, std::string evidence) {
    if (!kind) kind = runtime;
    os.container_evidence.push_back(std::move(evidence));
  };
  if (ctx.env.Has("KUBERNETES_SERVICE_HOST")) hint("kubernetes", "KUBERNETES_SERVICE_HOST is set");
  snap.looked_at.push_back("/run/.containerenv");
  if (ctx.fs.Exists("/run/.containerenv")) hint("podman", "/run/.containerenv exists");
  snap.looked_at.push_back("/.dockerenv");
  if (ctx.fs.Exists("/.dockerenv")) hint("docker", "/.dockerenv exists");
  if (auto cgroup = ReadText(ctx, snap, "/proc/1/cgroup", /*optional=*/true)) {
    if (auto runtime = ContainerFromCgroup(*cgroup)) hint(*runtime, "/proc/1/cgroup names " + *runtime);
  }
  os.container = kind;
}

// Returns whether the CPU announces a hypervisor (the `hypervisor` flag), for ProbeVirtualMachine.
bool ProbeCpu(const ProbeContext& ctx, Snapshot& snap) {
  auto text = ReadText(ctx, snap, "/proc/cpuinfo", false);
  if (!text) return false;
  const bool hypervisor = CpuInfoHasHypervisorFlag(*text);
  auto cpu = ParseCpuInfo(*text);
  if (!cpu.ok()) {
    snap.warnings.push_back("/proc/cpuinfo: " + cpu.error().message);
    return hypervisor;
  }
  snap.cpu.model = cpu->model;
  snap.cpu.logical_cores = cpu->logical_cores;
  snap.cpu.physical_cores = cpu->physical_cores;
  snap.cpu.sockets = cpu->sockets;
  return hypervisor;
}

// WSL2 is a Hyper-V guest too, but says so itself (ProbeWsl): only other guests are named here.
void ProbeVirtualMachine(const ProbeContext& ctx, Snapshot& snap, bool cpu_hypervisor_flag) {
  if (snap.os.wsl) return;
  VirtualMachineEvidence evidence;
  evidence.cpu_hypervisor_flag = cpu_hypervisor_flag;
  if (auto vendor = ReadText(ctx, snap, "/sys/class/dmi/id/sys_vendor", /*optional=*/true))
    evidence.dmi_sys_vendor = std::string(Trim(*vendor));
  if (auto product = ReadText(ctx, snap, "/sys/class/dmi/id/product_name", /*optional=*/true))
    evidence.dmi_product_name = std::string(Trim(*product));
  VirtualMachineVerdict verdict = ClassifyVirtualMachine(evidence);
  snap.os.virtual_machine = verdict.name;
  snap.os.virtual_machine_evidence = std::move(verdict.evidence);
}

void ProbeMemory(const ProbeContext& ctx, Snapshot& snap) {
  auto text = ReadText(ctx, snap, "/proc/meminfo", false);
  if (!text) return;
  auto mem = ParseMemInfo(*text);
  if (!mem.ok()) {
    snap.warnings.push_back("/proc/meminfo: " + mem.error().message);
    return;
  }
  snap.memory.total_bytes = mem->total_bytes;
  snap.memory.available_bytes = mem->available_bytes;
}

std::string DiskPathParent(const std::string& path) {
  size_t pos = path.find_last_of('/');
  if (pos == std::string::npos || pos == 0) return "/";
  return path.substr(0, pos);
}

// Under a sysroot the host's free space means nothing: `gather` records the
// recorded machine's as numbers in /.gpudoctor/disk ("path=", "total_bytes=", "free_bytes=").
void ReadRecordedDisk(const ProbeContext& ctx, Snapshot& snap) {
  std::string file = std::string(kRecordedInputsDir) + "/disk";
  snap.looked_at.push_back("free space recorded in " + file);
  auto text = ctx.fs.ReadFile(file, 4096);
  if (!text.ok()) return;  // not recorded: unknown, not an error
  for (auto line : SplitLines(*text)) {
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "path") {
      snap.disk.path = std::string(Trim(value));
    } else if (key == "total_bytes" || key == "free_bytes") {
      auto n = ParseU64(value);
      if (!n) {
        snap.warnings.push_back(file + ": " + std::string(key) + " is not a number");
        continue;
      }
      (key == "total_bytes" ? snap.disk.total_bytes : snap.disk.free_bytes) = *n;
    }
  }
}

void ProbeDisk(const ProbeContext& ctx, Snapshot& snap) {
  if (!ctx.live) {
    ReadRecordedDisk(ctx, snap);
    return;
  }
  std::string home = ctx.env.Get("HOME").value_or("");
  while (home.size() > 1 && home.back() == '/') home.pop_back();
  if (home.empty() || home.front() != '/') home = ctx.identity.is_admin ? "/root" : "/";
  // A sysroot rarely holds the home folder itself: measure the nearest folder that exists.
  for (std::string folder = home;; folder = DiskPathParent(folder)) {
    snap.looked_at.push_back("free space of " + folder);
    auto space = ctx.fs.Exists(folder) ? ctx.fs.Space(folder)
                                       : Result<DiskSpace>(EnvError(folder + ": no such folder"));
    if (space.ok()) {
      snap.disk.path = folder;
      snap.disk.total_bytes = space->capacity_bytes;
      snap.disk.free_bytes = space->available_bytes;
      return;
    }
    if (folder == "/") {
      snap.warnings.push_back("free disk space of " + home + " unknown: " + space.error().message);
      return;
    }
  }
}

void ProbeHostName(const ProbeContext& ctx, Snapshot& snap) {
  for (const char* path : {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
    auto text = ReadText(ctx, snap, path, /*optional=*/true);
    if (!text) continue;
    auto lines = SplitLines(*text);
    std::string_view name = lines.empty() ? std::string_view{} : Trim(lines.front());
    if (name.empty() || name.size() > 253) {
      snap.warnings.push_back(std::string(path) + " holds no host name");
      continue;
    }
    snap.host_name = std::string(name);
    return;
  }
  snap.warnings.push_back("host name unknown (/proc/sys/kernel/hostname, /etc/hostname)");
}

}  // namespace

void ProbeOs(const ProbeContext& ctx, Snapshot& snap) {
  snap.os.family = OsFamily::kLinux;
  ProbeDistribution(ctx, snap);
  ProbeKernel(ctx, snap);
  ProbeWsl(ctx, snap);
  ProbeContainer(ctx, snap);
  ProbeVirtualMachine(ctx, snap, ProbeCpu(ctx, snap));
  ProbeMemory(ctx, snap);
  ProbeDisk(ctx, snap);
  ProbeHostName(ctx, snap);
}

}  // namespace gpudoctor
