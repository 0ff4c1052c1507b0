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

// The files each library is looked for under, in order (full paths or names for the system loader). The
// default is the system names; tests name stand-in libraries by path.
struct NvidiaLibraries {
  std::vector<std::string> nvml;
  std::vector<std::string> cuda;
};
NvidiaLibraries DefaultNvidiaLibraries();
void QueryNvidiaLive(NvidiaInfo& info, std::vector<std::string>& warnings, const NvidiaLibraries& libraries);

}  // namespace gpudoctor
