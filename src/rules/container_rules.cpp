// GPUs inside a container: the host's PCI devices show through sysfs (and its driver through /proc), but the
// device nodes and the driver's user-space libraries exist inside only when the container was started with
// them: `--gpus all` (the NVIDIA Container Toolkit maps /dev/nvidia* and libcuda/NVML in), or for ROCm
// `--device=/dev/kfd --device=/dev/dri` with the video and render groups. One rule, both vendors.
#include <algorithm>

#include "rules/framework_parts.h"

namespace gpudoctor {
namespace {

std::string ContainerEvidence(const Snapshot& snap) {
  std::string out = "running in a " + snap.os.container.value_or("container") + " container";
  if (!snap.os.container_evidence.empty()) out += " (" + snap.os.container_evidence.front() + ")";
  return out;
}

void NvidiaNotMapped(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  Finding f = MakeFinding("runtime.container_gpu_not_mapped", Layer::kRuntime, Severity::kError, g.label,
                          "This container was started without the NVIDIA GPU: CUDA cannot see it");
  f.evidence.push_back(ContainerEvidence(ctx.snap));
  f.evidence.push_back(
      "required the driver's libcuda.so.1 inside the container, found none; the host's GPU " + g.label +
      " shows only through sysfs");
  f.fix_summary =
      "start the container with the GPUs: docker run --gpus all (podman: --device nvidia.com/gpu=all), which "
      "needs the NVIDIA Container Toolkit on the host";
  f.fix.push_back(
      FixAction::Bash("docker run --gpus all IMAGE ...   # on the host; compose: deploy.resources"
                      ".reservations.devices with driver nvidia"));
  f.fix.push_back(
      FixAction::Manual("on the host: install nvidia-container-toolkit and run sudo nvidia-ctk "
                        "runtime configure --runtime=docker, then restart Docker"));
  f.link = "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html";
  out.push_back(std::move(f));
}

void AmdNotMapped(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  Finding f = MakeFinding("runtime.container_gpu_not_mapped", Layer::kRuntime, Severity::kError, g.label,
                          "This container was started without the AMD GPU devices: ROCm cannot see the GPU");
  f.evidence.push_back(ContainerEvidence(ctx.snap));
  f.evidence.push_back(
      "required /dev/kfd and /dev/dri inside the container, found no /dev/kfd; the host's GPU " + g.label +
      " shows only through sysfs");
  f.fix_summary = "start the container with the GPU devices and the groups that own them";
  f.fix.push_back(
      FixAction::Bash("docker run --device=/dev/kfd --device=/dev/dri --group-add video --group-add render "
                      "--security-opt seccomp=unconfined IMAGE ...   # on the host"));
  f.link = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html";
  out.push_back(std::move(f));
}

}  // namespace

void ContainerRules(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux || !ctx.snap.os.container) return;
  const bool libcuda = std::any_of(ctx.snap.runtimes.begin(), ctx.snap.runtimes.end(),
                                   [](const RuntimeInstall& r) { return r.kind == "libcuda"; });
  bool kfd = false;
  for (const auto& n : ctx.snap.amd.device_nodes) kfd = kfd || (n.path == "/dev/kfd" && n.exists);
  const GpuView* nvidia = nullptr;
  const GpuView* amd = nullptr;
  for (const GpuView& g : ctx.gpus) {
    if (!g.pci) continue;
    if (g.vendor == GpuVendor::kNvidia && g.pci->driver == "nvidia" && nvidia == nullptr) nvidia = &g;
    if (g.vendor == GpuVendor::kAmd && g.pci->driver == "amdgpu" && amd == nullptr) amd = &g;
  }
  if (nvidia != nullptr && !libcuda) NvidiaNotMapped(ctx, *nvidia, out);
  if (amd != nullptr && !kfd) AmdNotMapped(ctx, *amd, out);
}

}  // namespace gpudoctor
