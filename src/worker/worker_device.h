// The device a worker opens, as the parent names it in the WorkerRequest: by its PCI address, the device's
// identity, which a CUDA_VISIBLE_DEVICES or HIP_VISIBLE_DEVICES reordering cannot change (the parent's
// DeviceChoice resolves `--device` to it once); or by the runtime's index where the parent has no address
// (a collectives rank, one per local GPU); or empty for the runtime's first device. The worker maps the
// reference back to its own backend's ordinal through the backend's device list.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/backend.h"

namespace gpudoctor {

// True for "", a decimal index, or a PCI address in the form the backends report ("0000:17:00.0",
// lowercase hexadecimal): what a worker request may carry.
bool IsWorkerDeviceRef(const std::string& ref);

// The backend's ordinal of the device `ref` names among `devices` (Backend::Devices()); an error naming
// what the runtime sees when none matches.
Result<int> WorkerDeviceOrdinal(const std::vector<DeviceInfo>& devices, const std::string& ref);

// Loads the runtime, maps `ref` to the backend's ordinal and opens that device; the ordinal.
Result<int> OpenWorkerDevice(Backend& backend, const std::string& ref);

}  // namespace gpudoctor
