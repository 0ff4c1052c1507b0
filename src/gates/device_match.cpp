// Backend order, device selection, bus-versus-runtime matching and install advice (see device_match.h).
#include "gates/device_match.h"

#include <algorithm>

#include "core/pci_address.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

bool HasVendor(const Snapshot& s, GpuVendor v) {
  return std::any_of(s.gpus.begin(), s.gpus.end(), [v](const Gpu& g) { return g.vendor == v; });
}

GpuVendor VendorOf(BackendKind k) {
  return k == BackendKind::kCuda  ? GpuVendor::kNvidia
         : k == BackendKind::kHip ? GpuVendor::kAmd
                                  : GpuVendor::kOther;
}

}  // namespace

std::vector<BackendKind> BackendOrder(const Snapshot& snapshot) {
  bool nvidia = HasVendor(snapshot, GpuVendor::kNvidia), amd = HasVendor(snapshot, GpuVendor::kAmd);
  if (nvidia && !amd) return {BackendKind::kCuda};
  if (amd && !nvidia) return {BackendKind::kHip};
  return {BackendKind::kCuda, BackendKind::kHip};
}

Result<int> SelectDevice(const std::vector<DeviceInfo>& devices, const std::string& selector) {
  if (devices.empty()) return EnvError("the runtime sees no device");
  if (selector.empty()) return 0;
  if (auto index = ParseU64(selector)) {
    if (*index < devices.size()) return static_cast<int>(*index);
    return UserError("--device " + selector + ": the runtime sees only " + std::to_string(devices.size()) +
                     (devices.size() == 1 ? " device (index 0)"
                                          : " devices (0.." + std::to_string(devices.size() - 1) + ")"));
  }
  std::string want = NormalizePciAddress(selector);
  for (const auto& d : devices)
    if (NormalizePciAddress(d.pci_address) == want) return d.index;
  std::string seen;
  for (const auto& d : devices) seen += (seen.empty() ? "" : ", ") + d.pci_address;
  return UserError("--device " + selector + ": no device at that PCI address (the runtime sees " + seen +
                   ")");
}

std::vector<std::string> MatchBusToRuntime(const Snapshot& snapshot, BackendKind backend,
                                           const std::vector<DeviceInfo>& devices, const Environment& env) {
  std::vector<std::string> findings;
  GpuVendor vendor = VendorOf(backend);
  std::vector<std::string> runtime_pci;
  for (const auto& d : devices) runtime_pci.push_back(NormalizePciAddress(d.pci_address));
  std::string visible_vars;
  for (const char* var :
       {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL"}) {
    if (auto v = env.Get(var)) visible_vars += std::string(visible_vars.empty() ? "" : ", ") + var + "=" + *v;
  }
  std::vector<std::string> bus_pci;
  for (const auto& g : snapshot.gpus) {
    if (g.vendor != vendor || g.pci_address.empty()) continue;
    std::string pci = NormalizePciAddress(g.pci_address);
    bus_pci.push_back(pci);
    if (std::find(runtime_pci.begin(), runtime_pci.end(), pci) != runtime_pci.end()) continue;
    std::string line = "the GPU at " + pci + (g.name.empty() ? "" : " (" + g.name + ")") +
                       " is on the PCI bus but the " + (backend == BackendKind::kCuda ? "CUDA" : "HIP") +
                       " runtime does not see it";
    if (!visible_vars.empty())
      line += "; " + visible_vars + " may hide it";
    else if (!g.driver.empty() && g.driver != "nvidia" && g.driver != "amdgpu")
      line += "; it is bound to the " + g.driver + " driver";
    else if (g.driver.empty())
      line += "; no kernel driver is bound to it";
    findings.push_back(line);
  }
  if (snapshot.live_machine && !bus_pci.empty()) {
    for (const auto& pci : runtime_pci)
      if (std::find(bus_pci.begin(), bus_pci.end(), pci) == bus_pci.end())
        findings.push_back("the runtime's device at " + pci + " is not among the GPUs found on the PCI bus");
  }
  return findings;
}

std::map<std::string, std::string> ArchHints(const Snapshot& snapshot) {
  std::map<std::string, std::string> out;
  for (const auto& g : snapshot.gpus)
    if (g.vendor == GpuVendor::kAmd && !g.architecture.empty() && !g.pci_address.empty())
      out[NormalizePciAddress(g.pci_address)] = g.architecture;
  return out;
}

std::string NoRuntimeAdvice(const Snapshot& snapshot) {
  bool nvidia = HasVendor(snapshot, GpuVendor::kNvidia), amd = HasVendor(snapshot, GpuVendor::kAmd);
  std::string out;
  if (nvidia)
    out +=
        "NVIDIA GPU found: install the NVIDIA driver (it provides libcuda and NVML), e.g. `sudo apt install "
        "nvidia-driver` or the driver from nvidia.com; PyTorch's CUDA wheels bring the rest.";
  if (amd) {
    if (!out.empty()) out += " ";
    out +=
        "AMD GPU found: load the amdgpu kernel driver and install ROCm's HIP runtime (amdgpu-install "
        "--usecase=rocm, see rocm.docs.amd.com), or a PyTorch ROCm wheel, which carries libamdhip64.";
  }
  if (out.empty())
    out =
        "no NVIDIA or AMD GPU was found on the PCI bus; gpudoctor verify needs one, with its driver and "
        "runtime "
        "(the NVIDIA driver, or amdgpu with ROCm).";
  return out;
}

}  // namespace gpudoctor
