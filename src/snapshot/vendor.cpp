// Vendor names and PCI vendor ids, and the names of the NVIDIA kernel module flavours.
#include "snapshot/snapshot.h"

namespace gpudoctor {

const char* ToString(GpuVendor v) {
  switch (v) {
    case GpuVendor::kAmd:
      return "amd";
    case GpuVendor::kNvidia:
      return "nvidia";
    case GpuVendor::kIntel:
      return "intel";
    case GpuVendor::kOther:
      return "other";
    case GpuVendor::kUnknown:
      break;
  }
  return "unknown";
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
  if (s == "amd") return GpuVendor::kAmd;
  if (s == "nvidia") return GpuVendor::kNvidia;
  if (s == "intel") return GpuVendor::kIntel;
  if (s == "other") return GpuVendor::kOther;
  return GpuVendor::kUnknown;
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
  switch (m) {
    case NvidiaKernelModule::kOpen:
      return "open";
    case NvidiaKernelModule::kProprietary:
      return "proprietary";
    case NvidiaKernelModule::kUnknown:
      break;
  }
  return "unknown";
}

NvidiaKernelModule NvidiaKernelModuleFromString(const std::string& s) {
  if (s == "open") return NvidiaKernelModule::kOpen;
  if (s == "proprietary") return NvidiaKernelModule::kProprietary;
  return NvidiaKernelModule::kUnknown;
}

}  // namespace gpudoctor
