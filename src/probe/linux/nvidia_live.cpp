// The live NVIDIA queries: NVML first (names, UUIDs, PCI addresses, memory, compute capability), then the
// CUDA driver API (the CUDA version the driver supports, and the devices when NVML is absent or broken).
#include "probe/linux/nvidia_live.h"

#include <cstring>
#include <optional>

#include "core/pci_address.h"
#include "core/strings.h"
#include "gpu/api/cuda_driver_api.h"
#include "gpu/api/nvml_api.h"
#include "probe/linux/nvidia_record.h"

namespace gpudoctor {
namespace {

// More devices than any machine holds: a count above it is garbage from a broken library.
constexpr unsigned kMaxDevices = 1024;

std::string FromBuffer(const char* buf, size_t capacity) {
  return std::string(buf, ::strnlen(buf, capacity));
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The part of a LibraryProbe that only depends on how loading went.
template <typename Table>
LibraryProbe DescribeLoad(const char* library, const LoadedTable<Table>& t) {
  LibraryProbe p;
  p.library = library;
  p.loaded_path = t.load.loaded_path;
  p.status = t.status;
  p.detail = t.status == LoadStatus::kAbsent ? t.load.last_error + " (tried " + Joined(t.load.tried) + ")"
                                             : t.symbols.Summary();
  return p;
}

void Fail(LibraryProbe& p, const std::string& what) {
  p.status = LoadStatus::kBroken;
  p.detail = what + (p.detail.empty() ? "" : "; " + p.detail);
}

NvidiaDevice QueryNvmlDevice(const NvmlApi& api, unsigned index, nvmlDevice_t handle,
                             std::vector<std::string>& warnings) {
  NvidiaDevice dev;
  dev.index = index;
  std::string where = "NVML device " + std::to_string(index) + ": ";
  auto note = [&](const char* call, nvmlReturn_t rc) {
    if (rc != kNvmlErrorNotSupported) warnings.push_back(where + call + " failed: " + NvmlErrorText(api, rc));
  };

  char text[kNvmlNameBufferSize] = {};
  if (auto rc = api.DeviceGetName(handle, text, sizeof text); rc == kNvmlSuccess)
    dev.name = FromBuffer(text, sizeof text);
  else
    note("nvmlDeviceGetName", rc);

  char uuid[kNvmlUuidBufferSize] = {};
  if (auto rc = api.DeviceGetUUID(handle, uuid, sizeof uuid); rc == kNvmlSuccess)
    dev.uuid = FromBuffer(uuid, sizeof uuid);
  else
    note("nvmlDeviceGetUUID", rc);

  nvmlPciInfo_t pci{};
  if (auto rc = api.DeviceGetPciInfo(handle, &pci); rc == kNvmlSuccess) {
    dev.pci_address = NormalizeNvidiaBusId(FromBuffer(pci.busId, sizeof pci.busId));
    if (dev.pci_address.empty()) dev.pci_address = NormalizeNvidiaBusId(FromBuffer(pci.busIdLegacy, 16));
    if (dev.pci_address.empty()) {
      // Compose it from the numeric fields; NVML gives no function number there, GPUs are function 0.
      dev.pci_address =
          NormalizeNvidiaBusId(Hex(pci.domain, 4) + ":" + Hex(pci.bus, 2) + ":" + Hex(pci.device, 2) + ".0");
      if (dev.pci_address.empty())
        warnings.push_back(where + "nvmlDeviceGetPciInfo returned an unreadable bus id");
    }
  } else {
    note("nvmlDeviceGetPciInfo", rc);
  }

  nvmlMemory_t mem{};
  if (auto rc = api.DeviceGetMemoryInfo(handle, &mem); rc == kNvmlSuccess)
    dev.memory_total_bytes = mem.total;
  else
    note("nvmlDeviceGetMemoryInfo", rc);

  if (api.DeviceGetCudaComputeCapability) {
    int major = -1, minor = -1;
    auto rc = api.DeviceGetCudaComputeCapability(handle, &major, &minor);
    if (rc == kNvmlSuccess && major >= 0 && minor >= 0) {
      dev.cc_major = static_cast<uint32_t>(major);
      dev.cc_minor = static_cast<uint32_t>(minor);
    } else if (rc != kNvmlSuccess) {
      note("nvmlDeviceGetCudaComputeCapability", rc);
    }
  }
  return dev;
}

// After a successful nvmlInit: versions and every device NVML lists.
void ReadNvml(const NvmlApi& api, NvidiaInfo& info, LibraryProbe& probe,
              std::optional<uint32_t>& cuda_version, std::vector<std::string>& warnings) {
  char version[kNvmlDriverVersionBufferSize] = {};
  if (api.SystemGetDriverVersion(version, sizeof version) == kNvmlSuccess && !info.driver_version) {
    info.driver_version = FromBuffer(version, sizeof version);
    info.driver_version_source = "nvml";
  }
  int cuda = 0;
  if (api.SystemGetCudaDriverVersion && api.SystemGetCudaDriverVersion(&cuda) == kNvmlSuccess && cuda > 0)
    cuda_version = static_cast<uint32_t>(cuda);
  unsigned count = 0;
  if (nvmlReturn_t rc = api.DeviceGetCount(&count); rc != kNvmlSuccess) {
    Fail(probe, "nvmlDeviceGetCount failed: " + NvmlErrorText(api, rc));
    return;
  }
  for (unsigned i = 0; i < count && i < kMaxDevices; ++i) {
    nvmlDevice_t handle = nullptr;
    if (nvmlReturn_t rc = api.DeviceGetHandleByIndex(i, &handle); rc != kNvmlSuccess) {
      // One GPU may be lost or unreachable while the others work.
      warnings.push_back("NVML device " + std::to_string(i) +
                         ": nvmlDeviceGetHandleByIndex failed: " + NvmlErrorText(api, rc));
      continue;
    }
    info.devices.push_back(QueryNvmlDevice(api, i, handle, warnings));
  }
}

// Returns the CUDA version NVML reports, for when the driver API cannot be loaded.
std::optional<uint32_t> QueryNvml(NvidiaInfo& info, const std::vector<std::string>& candidates,
                                  std::vector<std::string>& warnings) {
  auto nvml = LoadNvml(candidates);
  LibraryProbe probe = DescribeLoad("nvml", nvml);
  std::optional<uint32_t> cuda_version;
  if (nvml.status == LoadStatus::kLoaded) {
    if (nvmlReturn_t rc = nvml.api.Init(); rc != kNvmlSuccess) {
      Fail(probe, "nvmlInit failed: " + NvmlErrorText(nvml.api, rc));
    } else {
      ReadNvml(nvml.api, info, probe, cuda_version, warnings);
      nvml.api.Shutdown();
    }
  }
  info.libraries.push_back(std::move(probe));
  return cuda_version;
}

NvidiaDevice QueryCudaDevice(const CudaDriverApi& api, int ordinal, CUdevice dev_handle,
                             std::vector<std::string>& warnings) {
  NvidiaDevice dev;
  dev.index = static_cast<uint32_t>(ordinal);
  std::string where = "CUDA device " + std::to_string(ordinal) + ": ";
  char name[256] = {};
  if (auto rc = api.DeviceGetName(name, sizeof name, dev_handle); rc == kCudaSuccess)
    dev.name = FromBuffer(name, sizeof name);
  else
    warnings.push_back(where + "cuDeviceGetName failed: " + CudaErrorText(api, rc));

  auto attribute = [&](CUdevice_attribute attr) -> std::optional<uint32_t> {
    int v = -1;
    if (api.DeviceGetAttribute(&v, attr, dev_handle) != kCudaSuccess || v < 0) return std::nullopt;
    return static_cast<uint32_t>(v);
  };
  dev.cc_major = attribute(kCuAttrComputeCapabilityMajor);
  dev.cc_minor = attribute(kCuAttrComputeCapabilityMinor);
  auto domain = attribute(kCuAttrPciDomainId), bus = attribute(kCuAttrPciBusId),
       slot = attribute(kCuAttrPciDeviceId);
  if (domain && bus && slot) {
    dev.pci_address = NormalizeNvidiaBusId(Hex(*domain, 4) + ":" + Hex(*bus, 2) + ":" + Hex(*slot, 2) + ".0");
  }
  if (dev.pci_address.empty()) warnings.push_back(where + "PCI address attributes unavailable");

  size_t bytes = 0;
  if (auto rc = api.DeviceTotalMem(&bytes, dev_handle); rc == kCudaSuccess)
    dev.memory_total_bytes = bytes;
  else
    warnings.push_back(where + "cuDeviceTotalMem_v2 failed: " + CudaErrorText(api, rc));

  if (api.DeviceGetUuid) {
    CUuuid uuid{};
    if (api.DeviceGetUuid(&uuid, dev_handle) == kCudaSuccess) dev.uuid = FormatCudaUuid(uuid);
  }
  return dev;
}

// After a successful cuInit: every device the driver API lists.
void ReadCudaDevices(const CudaDriverApi& api, NvidiaInfo& info, LibraryProbe& probe,
                     std::vector<std::string>& warnings) {
  int count = 0;
  if (CUresult rc = api.DeviceGetCount(&count); rc != kCudaSuccess) {
    Fail(probe, "cuDeviceGetCount failed: " + CudaErrorText(api, rc));
    return;
  }
  for (int i = 0; i < count && i < static_cast<int>(kMaxDevices); ++i) {
    CUdevice handle = 0;
    if (CUresult rc = api.DeviceGet(&handle, i); rc != kCudaSuccess) {
      warnings.push_back("CUDA device " + std::to_string(i) +
                         ": cuDeviceGet failed: " + CudaErrorText(api, rc));
      continue;
    }
    info.devices.push_back(QueryCudaDevice(api, i, handle, warnings));
  }
}

void QueryCuda(NvidiaInfo& info, const std::vector<std::string>& candidates, bool want_devices,
               std::vector<std::string>& warnings) {
  auto cuda = LoadCudaDriver(candidates);
  LibraryProbe probe = DescribeLoad("cuda", cuda);
  if (cuda.status == LoadStatus::kLoaded) {
    const CudaDriverApi& api = cuda.api;
    // cuDriverGetVersion needs no cuInit, so the version is known even when init fails.
    int version = 0;
    if (api.DriverGetVersion(&version) == kCudaSuccess && version > 0)
      info.cuda_driver_version = static_cast<uint32_t>(version);
    // cuInit costs a few hundred milliseconds on a GPU machine (measured on an
    // H200: `info` 263 ms with it): call it only when NVML could not list the devices.
    if (want_devices) {
      if (CUresult rc = api.Init(0); rc != kCudaSuccess) {
        Fail(probe, "cuInit failed: " + CudaErrorText(api, rc));
      } else {
        ReadCudaDevices(api, info, probe, warnings);
      }
    }
  }
  info.libraries.push_back(std::move(probe));
}

}  // namespace

NvidiaLibraries DefaultNvidiaLibraries() {
  return {NvmlLibraryCandidates(), CudaDriverLibraryCandidates()};
}

void QueryNvidiaLive(NvidiaInfo& info, std::vector<std::string>& warnings) {
  QueryNvidiaLive(info, warnings, DefaultNvidiaLibraries());
}

void QueryNvidiaLive(NvidiaInfo& info, std::vector<std::string>& warnings, const NvidiaLibraries& libraries) {
  auto nvml_cuda_version = QueryNvml(info, libraries.nvml, warnings);
  bool nvml_gave_devices = !info.devices.empty();
  QueryCuda(info, libraries.cuda, /*want_devices=*/!nvml_gave_devices, warnings);
  if (!info.cuda_driver_version && nvml_cuda_version) info.cuda_driver_version = nvml_cuda_version;
}

}  // namespace gpudoctor
