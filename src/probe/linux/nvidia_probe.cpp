// The NVIDIA probe: the kernel module's version from /proc, then what NVML and the CUDA driver API
// say — asked live through dlopen, or read from the answers `gather` recorded when under a sysroot.
#include "probe/linux/nvidia_probe.h"

#include "gpu/api/cuda_driver_api.h"
#include "gpu/api/nvml_api.h"
#include "probe/linux/nvidia_live.h"
#include "probe/linux/nvidia_record.h"
#include "probe/linux/procfs_parse.h"

namespace gpudoctor {
namespace {

constexpr const char* kProcNvidiaVersion = "/proc/driver/nvidia/version";

void ReadKernelModuleVersion(const ProbeContext& ctx, Snapshot& snap) {
  snap.looked_at.push_back(kProcNvidiaVersion);
  // No file is the normal case on a machine without the NVIDIA kernel module: not a warning.
  if (!ctx.fs.Exists(kProcNvidiaVersion)) return;
  auto text = ctx.fs.ReadFile(kProcNvidiaVersion, 64 * 1024);
  if (!text.ok()) {
    snap.warnings.push_back(text.error().message);
    return;
  }
  snap.nvidia.kernel_module = NvidiaKernelModuleFromProcVersion(*text);
  auto version = ParseNvidiaProcVersion(*text);
  if (!version.ok()) {
    snap.warnings.push_back(std::string(kProcNvidiaVersion) + ": " + version.error().message);
    return;
  }
  snap.nvidia.driver_version = *version;
  snap.nvidia.driver_version_source = kProcNvidiaVersion;
}

void MarkNotProbed(NvidiaInfo& info, const std::string& why) {
  for (const char* lib : {"nvml", "cuda"}) {
    LibraryProbe p;
    p.library = lib;
    p.status = LoadStatus::kNotProbed;
    p.detail = why;
    info.libraries.push_back(std::move(p));
  }
}

// Under a sysroot: what NVML and the driver API answered on the recorded machine, if `gather` saved it.
void ReadRecordedAnswers(const ProbeContext& ctx, Snapshot& snap) {
  snap.looked_at.push_back(kRecordedNvmlFile);
  NvidiaInfo& info = snap.nvidia;
  if (!ctx.fs.Exists(kRecordedNvmlFile)) {
    MarkNotProbed(info, "not the live machine, and no recorded answers (.gpudoctor/nvml.json)");
    return;
  }
  auto text = ctx.fs.ReadFile(kRecordedNvmlFile, 4 << 20);
  if (!text.ok()) {
    snap.warnings.push_back(text.error().message);
    MarkNotProbed(info, "not the live machine; the recorded answers could not be read");
    return;
  }
  auto answers = ParseNvidiaAnswersJson(*text);
  if (!answers.ok()) {
    snap.warnings.push_back(std::string(kRecordedNvmlFile) + ": " + answers.error().message);
    MarkNotProbed(info, "not the live machine; the recorded answers are malformed");
    return;
  }
  for (const auto& problem : answers->problems)
    snap.warnings.push_back(std::string(kRecordedNvmlFile) + ": " + problem);
  if (!info.driver_version && answers->driver_version) {
    info.driver_version = answers->driver_version;
    info.driver_version_source = "nvml (recorded)";
  }
  info.cuda_driver_version = answers->cuda_driver_version;
  info.devices = std::move(answers->devices);
  MarkNotProbed(info, "recorded answers from .gpudoctor/nvml.json");
}

}  // namespace

void ProbeNvidia(const ProbeContext& ctx, Snapshot& snap) {
  ReadKernelModuleVersion(ctx, snap);
  if (ctx.live) {
    for (const auto& name : NvmlLibraryCandidates()) snap.looked_at.push_back("library " + name);
    for (const auto& name : CudaDriverLibraryCandidates()) snap.looked_at.push_back("library " + name);
    QueryNvidiaLive(snap.nvidia, snap.warnings);
  } else {
    ReadRecordedAnswers(ctx, snap);
  }
}

}  // namespace gpudoctor
