// Asks the live machine's NVIDIA libraries (NVML, then the CUDA driver API, both opened at run time)
// for devices and versions. Only for the live machine: a sysroot reads the recorded answers instead.
#pragma once

#include <string>
#include <vector>

#include "snapshot/snapshot.h"

namespace gpudoctor {

// Adds one LibraryProbe per library to info.libraries, fills info.devices (from NVML, or from the driver
// API when NVML gives none), info.cuda_driver_version, and info.driver_version when it is still empty.
// Failures become lines in `warnings`; nothing throws.
void QueryNvidiaLive(NvidiaInfo& info, std::vector<std::string>& warnings);

}  // namespace gpudoctor
