// The parent's device logic, as pure functions of the snapshot and the runtime's answers: which backend to
// try first, which device `--device` means, which GPUs on the PCI bus the runtime does not see, and what to
// install when no runtime is found.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/backend.h"
#include "platform/environment.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The backends to try, most likely first: the vendors of the GPUs on the bus (NVIDIA, then AMD); both when
// the bus shows none (the runtime may still see one, in a container without /sys, say).
std::vector<BackendKind> BackendOrder(const Snapshot& snapshot);

// `selector` is "" (the first device), an index ("1") or a PCI address in any spelling ("17:00.0").
Result<int> SelectDevice(const std::vector<DeviceInfo>& devices, const std::string& selector);

// One finding per GPU of the backend's vendor that the PCI bus shows and the runtime does not, naming the
// visible-devices variable when it is set, and per runtime device missing from the bus.
std::vector<std::string> MatchBusToRuntime(const Snapshot& snapshot, BackendKind backend,
                                           const std::vector<DeviceInfo>& devices, const Environment& env);

// "0000:c1:00.0" -> "gfx1100" for the AMD GPUs the probe knows (the HIP backend's architecture hints).
std::map<std::string, std::string> ArchHints(const Snapshot& snapshot);

// What to install when no GPU runtime loads, for the GPUs the snapshot found.
std::string NoRuntimeAdvice(const Snapshot& snapshot);

}  // namespace gpudoctor
