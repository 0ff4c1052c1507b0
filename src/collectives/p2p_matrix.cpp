// The peer-to-peer matrix over the CUDA driver API, and its JSON (see p2p_matrix.h).
#include "collectives/p2p_matrix.h"

#include <chrono>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "core/strings.h"
#include "gpu/api/cuda_driver_api.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
constexpr int kBandwidthCopies = 10;
constexpr int kLatencyCopies = 100;
constexpr size_t kMaxDevices = 64;

class CudaPeers {
 public:
  explicit CudaPeers(const CudaDriverApi& api) : api_(api) {}
  ~CudaPeers() {
    for (size_t i = 0; i < contexts_.size(); ++i) {
      if (!contexts_[i]) continue;
      api_.CtxSetCurrent(contexts_[i]);
      if (buffers_[i]) api_.MemFree(buffers_[i]);
      if (small_[i]) api_.MemFree(small_[i]);
      api_.DevicePrimaryCtxRelease(devices_[i]);
    }
  }
  CudaPeers(const CudaPeers&) = delete;
  CudaPeers& operator=(const CudaPeers&) = delete;

  Status Check(CUresult rc, const char* call) const {
    if (rc == kCudaSuccess) return Ok{};
    return EnvError(std::string(call) + " failed: " + CudaErrorText(api_, rc));
  }

  Status Open(int count, uint64_t bytes) {
    for (int i = 0; i < count; ++i) {
      CUdevice dev = 0;
      CUcontext ctx = nullptr;
      if (auto s = Check(api_.DeviceGet(&dev, i), "cuDeviceGet"); !s) return s;
      if (auto s = Check(api_.DevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain"); !s) return s;
      devices_.push_back(dev);
      contexts_.push_back(ctx);
      buffers_.push_back(0);
      small_.push_back(0);
      if (auto s = Check(api_.CtxSetCurrent(ctx), "cuCtxSetCurrent"); !s) return s;
      // Source and destination halves in one allocation per GPU.
      if (auto s = Check(api_.MemAlloc(&buffers_.back(), 2 * bytes), "cuMemAlloc_v2"); !s) return s;
      if (auto s = Check(api_.MemAlloc(&small_.back(), 8), "cuMemAlloc_v2"); !s) return s;
    }
    return Ok{};
  }

  bool EnablePeer(int src, int dst) {
    if (src == dst) return true;
    int can = 0;
    if (api_.DeviceCanAccessPeer(&can, devices_[src], devices_[dst]) != kCudaSuccess || !can) return false;
    api_.CtxSetCurrent(contexts_[src]);
    CUresult rc = api_.CtxEnablePeerAccess(contexts_[dst], 0);
    return rc == kCudaSuccess || rc == kCudaErrorPeerAccessAlreadyEnabled;
  }

  // Copies `bytes` from src's source half to dst's destination half.
  Status Copy(int src, int dst, uint64_t bytes) {
    return Check(api_.MemcpyPeer(buffers_[dst] + bytes, contexts_[dst], buffers_[src], contexts_[src], bytes),
                 "cuMemcpyPeer");
  }

  Status Sync(int device) {
    if (auto s = Check(api_.CtxSetCurrent(contexts_[device]), "cuCtxSetCurrent"); !s) return s;
    return Check(api_.CtxSynchronize(), "cuCtxSynchronize");
  }

  Result<bool> Verify(int src, int dst, uint64_t bytes, uint32_t pattern) {
    if (auto s = Check(api_.CtxSetCurrent(contexts_[src]), "cuCtxSetCurrent"); !s) return s.error();
    if (auto s = Check(api_.MemsetD32(buffers_[src], pattern, bytes / 4), "cuMemsetD32_v2"); !s)
      return s.error();
    if (auto s = Check(api_.CtxSetCurrent(contexts_[dst]), "cuCtxSetCurrent"); !s) return s.error();
    if (auto s = Check(api_.MemsetD32(buffers_[dst] + bytes, ~pattern, bytes / 4), "cuMemsetD32_v2"); !s)
      return s.error();
    if (auto s = Sync(src); !s) return s.error();
    if (auto s = Sync(dst); !s) return s.error();
    if (auto s = Copy(src, dst, bytes); !s) return s.error();
    if (auto s = Sync(dst); !s) return s.error();
    std::vector<uint32_t> host(bytes / 4);
    if (auto s = Check(api_.MemcpyDtoH(host.data(), buffers_[dst] + bytes, bytes), "cuMemcpyDtoH_v2"); !s)
      return s.error();
    for (uint32_t v : host)
      if (v != pattern) return false;
    return true;
  }

  Result<double> TimeCopies(int src, int dst, uint64_t bytes, int copies) {
    if (auto s = Copy(src, dst, bytes); !s) return s.error();
    if (auto s = Sync(dst); !s) return s.error();
    auto start = Clock::now();
    for (int i = 0; i < copies; ++i)
      if (auto s = Copy(src, dst, bytes); !s) return s.error();
    if (auto s = Sync(dst); !s) return s.error();
    if (auto s = Sync(src); !s) return s.error();
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  Result<double> LatencyUs(int src, int dst) {
    auto start = Clock::now();
    for (int i = 0; i < kLatencyCopies; ++i) {
      if (auto s = Check(api_.MemcpyPeer(small_[dst], contexts_[dst], small_[src], contexts_[src], 4),
                         "cuMemcpyPeer");
          !s)
        return s.error();
    }
    if (auto s = Sync(dst); !s) return s.error();
    return std::chrono::duration<double>(Clock::now() - start).count() * 1e6 / kLatencyCopies;
  }

 private:
  const CudaDriverApi& api_;
  std::vector<CUdevice> devices_;
  std::vector<CUcontext> contexts_;
  std::vector<CUdeviceptr> buffers_;
  std::vector<CUdeviceptr> small_;
};

Json Matrix(const std::vector<std::vector<double>>& m) {
  Json out = Json::array();
  for (const auto& row : m) out.push_back(row);
  return out;
}

Json Matrix(const std::vector<std::vector<bool>>& m) {
  Json out = Json::array();
  for (const auto& row : m) {
    Json r = Json::array();
    for (bool b : row) r.push_back(b);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

P2pMatrix MeasureP2pMatrixCuda(const BackendInputs& inputs, uint64_t bytes) {
  P2pMatrix m;
  bytes = std::max<uint64_t>(4, bytes - bytes % 4);
  m.bytes = bytes;
  BackendLibrary record;
  auto driver = LoadSearched<CudaDriverApi>(
      inputs, CudaDriverLibrarySpec(), [](const std::vector<std::string>& c) { return LoadCudaDriver(c); },
      record);
  if (driver.status != LoadStatus::kLoaded) {
    m.error = "the CUDA driver library could not be loaded: " + record.detail;
    return m;
  }
  const CudaDriverApi& api = driver.api;
  std::vector<std::string> missing = CudaBackendSymbolsMissing(api);
  if (!api.DeviceCanAccessPeer) missing.push_back("cuDeviceCanAccessPeer");
  if (!api.CtxEnablePeerAccess) missing.push_back("cuCtxEnablePeerAccess");
  if (!api.MemcpyPeer) missing.push_back("cuMemcpyPeer");
  if (!missing.empty()) {
    m.error = "libcuda lacks " + missing.front() +
              (missing.size() > 1 ? " and " + std::to_string(missing.size() - 1) + " more" : "");
    return m;
  }
  if (CUresult rc = api.Init(0); rc != kCudaSuccess) {
    m.error = "cuInit failed: " + CudaErrorText(api, rc);
    return m;
  }
  int count = 0;
  if (api.DeviceGetCount(&count) != kCudaSuccess || count <= 0) {
    m.error = "the CUDA driver sees no GPU";
    return m;
  }
  count = std::min<int>(count, kMaxDevices);
  for (int i = 0; i < count; ++i) {
    P2pDevice d;
    d.index = i;
    CUdevice dev = 0;
    char name[256] = {}, bus[64] = {};
    if (api.DeviceGet(&dev, i) == kCudaSuccess) {
      if (api.DeviceGetName(name, sizeof name, dev) == kCudaSuccess) d.name = name;
      if (api.DeviceGetPCIBusId(bus, sizeof bus, dev) == kCudaSuccess) d.pci_address = ToLower(bus);
    }
    m.devices.push_back(std::move(d));
  }
  size_t n = static_cast<size_t>(count);
  m.bandwidth_gbs.assign(n, std::vector<double>(n, 0));
  m.latency_us.assign(n, std::vector<double>(n, 0));
  m.peer_access.assign(n, std::vector<bool>(n, false));
  m.correct.assign(n, std::vector<bool>(n, false));
  CudaPeers peers(api);
  if (auto s = peers.Open(count, bytes); !s) {
    m.error = s.error().message;
    return m;
  }
  for (int src = 0; src < count; ++src) {
    for (int dst = 0; dst < count; ++dst) {
      m.peer_access[src][dst] = peers.EnablePeer(src, dst);
      auto ok = peers.Verify(src, dst, bytes, 0x5a000000u + static_cast<uint32_t>(src * 256 + dst));
      auto seconds = ok ? peers.TimeCopies(src, dst, bytes, kBandwidthCopies) : Result<double>(ok.error());
      auto latency = seconds ? peers.LatencyUs(src, dst) : Result<double>(seconds.error());
      if (!latency) {
        m.error =
            "GPU" + std::to_string(src) + " -> GPU" + std::to_string(dst) + ": " + latency.error().message;
        return m;
      }
      m.correct[src][dst] = *ok;
      m.bandwidth_gbs[src][dst] = static_cast<double>(bytes) * kBandwidthCopies / 1e9 / *seconds;
      m.latency_us[src][dst] = *latency;
    }
  }
  return m;
}

std::string P2pMatrixToJson(const P2pMatrix& m) {
  Json devices = Json::array();
  for (const auto& d : m.devices)
    devices.push_back({{"index", d.index}, {"name", d.name}, {"pci_address", d.pci_address}});
  Json doc = {{"devices", std::move(devices)},
              {"bytes", m.bytes},
              {"bandwidth_gbs", Matrix(m.bandwidth_gbs)},
              {"latency_us", Matrix(m.latency_us)},
              {"peer_access", Matrix(m.peer_access)},
              {"correct", Matrix(m.correct)},
              {"error", m.error.empty() ? Json(nullptr) : Json(m.error)}};
  return doc.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<P2pMatrix> P2pMatrixFromJson(std::string_view text) {
  try {
    Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
      return EnvError("the P2P worker's answer is not a JSON object");
    P2pMatrix m;
    for (const auto& d : doc.value("devices", Json::array()))
      m.devices.push_back({WholeNumberOr(d, "index", 0), d.value("name", ""), d.value("pci_address", "")});
    m.bytes = WholeNumberOr(doc, "bytes", uint64_t{0});
    m.bandwidth_gbs = doc.value("bandwidth_gbs", std::vector<std::vector<double>>{});
    m.latency_us = doc.value("latency_us", std::vector<std::vector<double>>{});
    m.peer_access = doc.value("peer_access", std::vector<std::vector<bool>>{});
    m.correct = doc.value("correct", std::vector<std::vector<bool>>{});
    if (doc.contains("error") && doc["error"].is_string()) m.error = doc["error"].get<std::string>();
    size_t n = m.devices.size();
    auto square = [n](const auto& mat) {
      if (mat.size() != n) return false;
      for (const auto& row : mat)
        if (row.size() != n) return false;
      return true;
    };
    if (m.error.empty() &&
        !(square(m.bandwidth_gbs) && square(m.latency_us) && square(m.peer_access) && square(m.correct)))
      return EnvError("the P2P worker's matrices are not " + std::to_string(n) + " x " + std::to_string(n));
    return m;
  } catch (const std::exception& e) {
    return EnvError(std::string("the P2P worker's answer is malformed: ") + e.what());
  }
}

}  // namespace gpudoctor
