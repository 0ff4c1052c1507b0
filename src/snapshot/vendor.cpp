// Vendor names and PCI vendor ids, and the names of the NVIDIA kernel module flavours.
#include "snapshot/snapshot.h"

#include "core/enum_names.h"

namespace gpudoctor {

constexpr std::array kGpuVendorNames = {
    EnumName<GpuVendor>{GpuVendor::kUnknown, "unknown"}, EnumName<GpuVendor>{GpuVendor::kAmd, "amd"},
    EnumName<GpuVendor>{GpuVendor::kNvidia, "nvidia"},   EnumName<GpuVendor>{GpuVendor::kIntel, "intel"},
    EnumName<GpuVendor>{GpuVendor::kOther, "other"},
};

constexpr std::array kNvidiaKernelModuleNames = {
    EnumName<NvidiaKernelModule>{NvidiaKernelModule::kUnknown, "unknown"},
    EnumName<NvidiaKernelModule>{NvidiaKernelModule::kOpen, "open"},
    EnumName<NvidiaKernelModule>{NvidiaKernelModule::kProprietary, "proprietary"},
};

const char* ToString(GpuVendor v) {
  return NameIn(kGpuVendorNames, v);
}

const char* VendorLabel(GpuVendor v) {
  switch (v) {
    case GpuVendor::kAmd:
      return "AMD";
    case GpuVendor::kNvidia:
      return "NVIDIA";
    case GpuVendor::kIntel:
      return "Intel";
    case GpuVendor::kOther:
      return "other";
    case GpuVendor::kUnknown:
      break;
  }
  return "unknown";
}

GpuVendor GpuVendorFromString(const std::string& s) {
  return ValueIn(kGpuVendorNames, s).value_or(GpuVendor::kUnknown);
}

GpuVendor GpuVendorFromPciId(uint32_t vendor_id) {
  switch (vendor_id) {
    case 0x1002:
      return GpuVendor::kAmd;
    case 0x10de:
      return GpuVendor::kNvidia;
    case 0x8086:
      return GpuVendor::kIntel;
    default:
      return GpuVendor::kOther;
  }
}

const char* ToString(NvidiaKernelModule m) {
  return NameIn(kNvidiaKernelModuleNames, m);
}

NvidiaKernelModule NvidiaKernelModuleFromString(const std::string& s) {
  return ValueIn(kNvidiaKernelModuleNames, s).value_or(NvidiaKernelModule::kUnknown);
}

}  // namespace gpudoctor
