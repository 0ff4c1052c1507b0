// One GPU as the rest of the program names it: the runtime's ordinal, its name and its PCI address (the
// identity that survives CUDA_/HIP_VISIBLE_DEVICES and a second library). The device records of the GPU
// half (gpu/backend.h's DeviceInfo, the P2P matrix's rows) are this plus what each knows besides.
#pragma once

#include <string>

namespace gpudoctor {

struct GpuRef {
  int index = 0;            // the runtime's ordinal (after CUDA_/HIP_VISIBLE_DEVICES)
  std::string name;         // "NVIDIA H200", "AMD Instinct MI300X"
  std::string pci_address;  // "0000:17:00.0", lowercase
};

}  // namespace gpudoctor
