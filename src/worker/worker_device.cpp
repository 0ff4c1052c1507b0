// The worker's side of the device reference (see worker_device.h).
#include "worker/worker_device.h"

#include "core/pci_address.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

std::string Seen(const std::vector<DeviceInfo>& devices) {
  std::string seen;
  for (const auto& d : devices)
    seen += (seen.empty() ? "" : ", ") + std::to_string(d.index) + " at " + d.pci_address;
  return seen;
}

}  // namespace

bool IsWorkerDeviceRef(const std::string& ref) {
  return ref.empty() || ParseU64(ref).has_value() || IsCanonicalPciAddress(ref);
}

Result<int> WorkerDeviceOrdinal(const std::vector<DeviceInfo>& devices, const std::string& ref) {
  if (devices.empty()) return EnvError("the runtime sees no device");
  if (ref.empty()) return devices.front().index;
  if (auto index = ParseU64(ref)) {
    for (const auto& d : devices)
      if (static_cast<uint64_t>(d.index) == *index) return d.index;
    return UserError("device " + ref + ": the runtime sees only " + Seen(devices));
  }
  for (const auto& d : devices)
    if (ToLower(d.pci_address) == ref) return d.index;
  return EnvError(
      "the device at " + ref + " is not among the runtime's devices (" + Seen(devices) + ")",
      "a visible-devices variable (CUDA_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES) "
      "may have changed between the device choice and this worker");
}

Result<int> OpenWorkerDevice(Backend& backend, const std::string& ref) {
  if (auto s = backend.LoadRuntime(); !s) return s.error();
  auto devices = backend.Devices();
  if (!devices) return devices.error();
  auto ordinal = WorkerDeviceOrdinal(*devices, ref);
  if (!ordinal) return ordinal.error();
  if (auto s = backend.OpenDevice(*ordinal); !s) return s.error();
  return *ordinal;
}

}  // namespace gpudoctor
