// The peer-to-peer matrix over the vendor-neutral Backend, and its JSON (see p2p_matrix.h).
#include "collectives/p2p_matrix.h"
#include "core/json_depth.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/json_reader.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
constexpr int kBandwidthCopies = 10;
constexpr int kLatencyCopies = 100;
constexpr size_t kMaxDevices = 64;

// One buffer pair per GPU (the source and destination halves of one allocation, and 8 bytes for the latency
// copies), the copies between them and their checks, all through the Backend.
class PeerBuffers {
 public:
  explicit PeerBuffers(Backend& backend) : backend_(backend) {}
  ~PeerBuffers() {
    for (size_t i = 0; i < large_.size(); ++i) {
      if (!backend_.OpenDevice(static_cast<int>(i))) continue;
      if (large_[i]) (void)backend_.Free(large_[i]);
      if (small_[i]) (void)backend_.Free(small_[i]);
    }
  }
  PeerBuffers(const PeerBuffers&) = delete;
  PeerBuffers& operator=(const PeerBuffers&) = delete;

  Status Open(int count, uint64_t bytes) {
    for (int i = 0; i < count; ++i) {
      large_.push_back(0);
      small_.push_back(0);
      if (auto s = backend_.OpenDevice(i); !s) return s;
      auto large = backend_.Allocate(2 * bytes);
      if (!large) return large.error();
      large_.back() = *large;
      auto small = backend_.Allocate(8);
      if (!small) return small.error();
      small_.back() = *small;
    }
    return Ok{};
  }

  // Whether direct access from src to dst is on (always on the diagonal); an error only when the runtime
  // cannot say whether the pair could have it.
  Result<bool> EnablePeer(int src, int dst) {
    if (src == dst) return true;
    auto can = backend_.CanAccessPeer(src, dst);
    if (!can) return can.error();
    if (!*can) return false;
    if (auto s = backend_.OpenDevice(src); !s) return s.error();
    return backend_.EnablePeerAccess(dst).ok();
  }

  // Copies `bytes` from src's source half to dst's destination half.
  Status Copy(int src, int dst, uint64_t bytes) {
    return backend_.CopyPeer(Large(dst) + bytes, dst, Large(src), src, bytes);
  }

  Status Sync(int device) {
    if (auto s = backend_.OpenDevice(device); !s) return s;
    return backend_.Synchronize();
  }

  Status Fill(int device, DevicePtr p, uint32_t pattern, uint64_t bytes) {
    if (auto s = backend_.OpenDevice(device); !s) return s;
    return backend_.Memset32(p, pattern, bytes / 4);
  }

  Result<bool> Verify(int src, int dst, uint64_t bytes, uint32_t pattern) {
    if (auto s = Fill(src, Large(src), pattern, bytes); !s) return s.error();
    if (auto s = Fill(dst, Large(dst) + bytes, ~pattern, bytes); !s) return s.error();
    if (auto s = Sync(src); !s) return s.error();
    if (auto s = Sync(dst); !s) return s.error();
    if (auto s = Copy(src, dst, bytes); !s) return s.error();
    if (auto s = Sync(dst); !s) return s.error();
    std::vector<uint32_t> host(bytes / 4);
    if (auto s = backend_.CopyToHost(host.data(), Large(dst) + bytes, bytes); !s) return s.error();
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
    for (int i = 0; i < kLatencyCopies; ++i)
      if (auto s = backend_.CopyPeer(small_[static_cast<size_t>(dst)], dst, small_[static_cast<size_t>(src)],
                                     src, 4);
          !s)
        return s.error();
    if (auto s = Sync(dst); !s) return s.error();
    return std::chrono::duration<double>(Clock::now() - start).count() * 1e6 / kLatencyCopies;
  }

 private:
  DevicePtr Large(int device) const { return large_[static_cast<size_t>(device)]; }

  Backend& backend_;
  std::vector<DevicePtr> large_;
  std::vector<DevicePtr> small_;
};

// The devices the matrix covers: every one the runtime sees, at most kMaxDevices.
Result<std::vector<GpuRef>> MatrixDevices(Backend& backend) {
  auto devices = backend.Devices();
  if (!devices) return devices.error();
  if (devices->empty()) return EnvError("the " + backend.DisplayName() + " runtime sees no GPU");
  std::vector<GpuRef> out;
  for (const auto& d : *devices) {
    if (out.size() == kMaxDevices) break;
    out.push_back({d.index, d.name, d.pci_address});
  }
  return out;
}

// One cell: direct access, the checked copy, bandwidth and latency; an error stops the matrix.
Status MeasurePair(PeerBuffers& peers, int src, int dst, P2pMatrix& m) {
  auto direct = peers.EnablePeer(src, dst);
  if (!direct) return direct.error();
  m.peer_access[src][dst] = *direct;
  auto ok = peers.Verify(src, dst, m.bytes, 0x5a000000u + static_cast<uint32_t>(src * 256 + dst));
  if (!ok) return ok.error();
  auto seconds = peers.TimeCopies(src, dst, m.bytes, kBandwidthCopies);
  if (!seconds) return seconds.error();
  auto latency = peers.LatencyUs(src, dst);
  if (!latency) return latency.error();
  m.correct[src][dst] = *ok;
  m.bandwidth_gbs[src][dst] = static_cast<double>(m.bytes) * kBandwidthCopies / 1e9 / *seconds;
  m.latency_us[src][dst] = *latency;
  return Ok{};
}

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

P2pMatrix MeasureP2pMatrix(Backend& backend, uint64_t bytes) {
  P2pMatrix m;
  m.bytes = std::max<uint64_t>(4, bytes - bytes % 4);
  auto devices = MatrixDevices(backend);
  if (!devices) {
    m.error = devices.error().message;
    return m;
  }
  m.devices = *devices;
  size_t n = m.devices.size();
  m.bandwidth_gbs.assign(n, std::vector<double>(n, 0));
  m.latency_us.assign(n, std::vector<double>(n, 0));
  m.peer_access.assign(n, std::vector<bool>(n, false));
  m.correct.assign(n, std::vector<bool>(n, false));
  PeerBuffers peers(backend);
  if (auto s = peers.Open(static_cast<int>(n), m.bytes); !s) {
    m.error = s.error().message;
    return m;
  }
  for (int src = 0; src < static_cast<int>(n); ++src) {
    for (int dst = 0; dst < static_cast<int>(n); ++dst) {
      if (auto s = MeasurePair(peers, src, dst, m); !s) {
        m.error = "GPU" + std::to_string(src) + " -> GPU" + std::to_string(dst) + ": " + s.error().message;
        return m;
      }
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
    Json doc = ParseJsonWithinDepth<Json>(text);
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
