// The live NVML topology query (see nvml_topology.h): NVML loaded at run time, every call optional, every
// failure one warning line; a GPU without NVLink simply has no links.
#include <cstring>

#include "core/pci_address.h"
#include "gpu/api/nvml_api.h"
#include "topo/nvml_topology.h"

namespace gpudoctor {
namespace {

constexpr unsigned kMaxLiveDevices = 1024;

std::string RemoteTypeName(int type) {
  switch (type) {
    case kNvmlNvLinkDeviceGpu:
      return "gpu";
    case kNvmlNvLinkDeviceIbmNpu:
      return "ibmnpu";
    case kNvmlNvLinkDeviceSwitch:
      return "switch";
    default:
      return "unknown";
  }
}

std::string BusId(const nvmlPciInfo_t& pci) {
  std::string id = NormalizeNvidiaBusId(std::string(pci.busId, ::strnlen(pci.busId, sizeof pci.busId)));
  if (id.empty()) id = NormalizeNvidiaBusId(std::string(pci.busIdLegacy, ::strnlen(pci.busIdLegacy, 16)));
  return id;
}

std::vector<NvLinkRecord> QueryLinks(const NvmlApi& api, nvmlDevice_t dev) {
  std::vector<NvLinkRecord> links;
  if (!api.DeviceGetNvLinkState) return links;
  for (unsigned link = 0; link < kNvmlNvLinkMaxLinks; ++link) {
    int state = 0;
    // Not supported (no NVLink) or invalid argument (past the last link): nothing more to ask.
    if (api.DeviceGetNvLinkState(dev, link, &state) != kNvmlSuccess) break;
    NvLinkRecord r;
    r.link = link;
    r.active = state == 1;
    if (r.active && api.DeviceGetNvLinkRemotePciInfo) {
      nvmlPciInfo_t pci{};
      if (api.DeviceGetNvLinkRemotePciInfo(dev, link, &pci) == kNvmlSuccess)
        r.remote_pci_address = BusId(pci);
    }
    if (r.active && api.DeviceGetNvLinkRemoteDeviceType) {
      int type = -1;
      if (api.DeviceGetNvLinkRemoteDeviceType(dev, link, &type) == kNvmlSuccess)
        r.remote_type = RemoteTypeName(type);
    }
    links.push_back(std::move(r));
  }
  return links;
}

NvmlPairRecord QueryPair(const NvmlApi& api, nvmlDevice_t a, nvmlDevice_t b) {
  NvmlPairRecord r;
  if (api.DeviceGetTopologyCommonAncestor) {
    int level = -1;
    if (api.DeviceGetTopologyCommonAncestor(a, b, &level) == kNvmlSuccess)
      r.common_ancestor = PcieKindFromNvmlLevel(level);
  }
  if (api.DeviceGetP2PStatus) {
    const std::pair<const char*, int> caps[] = {{"read", kNvmlP2PCapsRead},
                                                {"write", kNvmlP2PCapsWrite},
                                                {"nvlink", kNvmlP2PCapsNvlink},
                                                {"atomics", kNvmlP2PCapsAtomics}};
    for (const auto& [name, index] : caps) {
      int status = -1;
      nvmlReturn_t rc = api.DeviceGetP2PStatus(a, b, index, &status);
      r.p2p[name] = rc == kNvmlSuccess ? NvmlP2PStatusName(status)
                                       : (rc == kNvmlErrorNotSupported ? "not_supported" : "unknown");
    }
  }
  return r;
}

}  // namespace

NvmlTopologyRecord QueryNvmlTopologyLive(std::vector<std::string>& warnings) {
  return QueryNvmlTopologyLive(warnings, NvmlLibraryCandidates());
}

NvmlTopologyRecord QueryNvmlTopologyLive(std::vector<std::string>& warnings,
                                         const std::vector<std::string>& nvml_candidates) {
  NvmlTopologyRecord out;
  auto nvml = LoadNvml(nvml_candidates);
  if (nvml.status != LoadStatus::kLoaded) return out;
  const NvmlApi& api = nvml.api;
  if (nvmlReturn_t rc = api.Init(); rc != kNvmlSuccess) {
    warnings.push_back("NVML: nvmlInit failed: " + NvmlErrorText(api, rc));
    return out;
  }
  unsigned count = 0;
  if (nvmlReturn_t rc = api.DeviceGetCount(&count); rc != kNvmlSuccess) {
    warnings.push_back("NVML: nvmlDeviceGetCount failed: " + NvmlErrorText(api, rc));
    api.Shutdown();
    return out;
  }
  std::vector<std::pair<nvmlDevice_t, std::string>> devices;
  for (unsigned i = 0; i < count && i < kMaxLiveDevices; ++i) {
    nvmlDevice_t handle = nullptr;
    nvmlPciInfo_t pci{};
    if (api.DeviceGetHandleByIndex(i, &handle) != kNvmlSuccess ||
        api.DeviceGetPciInfo(handle, &pci) != kNvmlSuccess) {
      warnings.push_back("NVML device " + std::to_string(i) +
                         ": no handle or PCI address; left out of the topology");
      continue;
    }
    devices.emplace_back(handle, BusId(pci));
  }
  out.present = !devices.empty();
  for (const auto& [handle, address] : devices) out.devices.push_back({address, QueryLinks(api, handle)});
  for (size_t i = 0; i < devices.size(); ++i) {
    for (size_t j = i + 1; j < devices.size(); ++j) {
      NvmlPairRecord r = QueryPair(api, devices[i].first, devices[j].first);
      r.a = devices[i].second;
      r.b = devices[j].second;
      out.pairs.push_back(std::move(r));
    }
  }
  api.Shutdown();
  return out;
}

}  // namespace gpudoctor
