// The collectives' worker requests, hex and sizes (see collective_request.h).
#include "collectives/collective_request.h"

#include <cctype>

#include "core/strings.h"

namespace gpudoctor {
namespace {

std::string OpsList(const std::vector<CollectiveOp>& ops) {
  std::string out;
  for (auto op : ops) out += (out.empty() ? "" : ",") + std::string(ToString(op));
  return out;
}

// Reads the count setting `name` into `into`, which keeps its value when the setting is absent.
template <typename T>
Status ReadCount(const WorkerRequest& w, const char* name, T& into) {
  auto v = SettingCount(w, name, static_cast<uint64_t>(into), uint64_t{1} << 40);
  if (!v) return v.error();
  into = static_cast<T>(*v);
  return Ok{};
}

Status ReadCounts(const WorkerRequest& w, CollectiveWorkerRequest& r) {
  for (const Status& s :
       {ReadCount(w, "rank", r.rank), ReadCount(w, "ranks", r.ranks),
        ReadCount(w, "min-bytes", r.options.min_bytes), ReadCount(w, "max-bytes", r.options.max_bytes),
        ReadCount(w, "factor", r.options.factor), ReadCount(w, "iters", r.options.iters),
        ReadCount(w, "warmup", r.options.warmup), ReadCount(w, "p2p-bytes", r.p2p_bytes)})
    if (!s) return s;
  return Ok{};
}

}  // namespace

WorkerRequest ToWorkerRequest(const CollectiveWorkerRequest& r) {
  WorkerRequest w;
  w.job = r.kind;
  w.backend = r.backend;
  w.device = std::to_string(r.device);  // a rank's GPU is its local index (one process per GPU)
  if (r.kind == kWorkerP2pMatrix) {
    w.settings["p2p-bytes"] = std::to_string(r.p2p_bytes);
    return w;
  }
  w.settings = {{"rank", std::to_string(r.rank)},
                {"ranks", std::to_string(r.ranks)},
                {"id", r.unique_id_hex},
                {"ops", OpsList(r.options.ops)},
                {"min-bytes", std::to_string(r.options.min_bytes)},
                {"max-bytes", std::to_string(r.options.max_bytes)},
                {"factor", std::to_string(r.options.factor)},
                {"iters", std::to_string(r.options.iters)},
                {"warmup", std::to_string(r.options.warmup)}};
  return w;
}

Result<CollectiveWorkerRequest> CollectiveRequestFromWorker(const WorkerRequest& w) {
  if (w.job != kWorkerCollectiveRank && w.job != kWorkerP2pMatrix)
    return UserError("worker: not a collectives job: " + w.job);
  CollectiveWorkerRequest r;
  r.kind = w.job;
  r.backend = w.backend;
  if (!w.device.empty()) {
    auto index = ParseU64(w.device);
    if (!index || *index > 4096)
      return UserError("worker: a collectives rank takes its device by index, not " + w.device);
    r.device = static_cast<int>(*index);
  }
  if (auto s = ReadCounts(w, r); !s) return s.error();
  if (w.settings.count("ops")) {
    auto ops = ParseCollectiveOps(SettingText(w, "ops", ""));
    if (!ops) return ops.error();
    r.options.ops = *ops;
  }
  r.unique_id_hex = SettingText(w, "id", "");
  if (!r.unique_id_hex.empty() && r.unique_id_hex.size() != 256) return UserError("id: not 256 hex digits");
  if (r.ranks < 1 || r.ranks > 1 << 20 || r.rank >= r.ranks) return UserError("rank must be below ranks");
  if (r.kind == kWorkerCollectiveRank && r.unique_id_hex.empty()) return UserError("id is required");
  if (r.options.iters < 1) return UserError("iters must be at least 1");
  return r;
}

std::string HexEncode(const void* data, size_t size) {
  const char* digits = "0123456789abcdef";
  const auto* p = static_cast<const unsigned char*>(data);
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

bool HexDecode(const std::string& hex, void* out, size_t size) {
  if (hex.size() != size * 2) return false;
  auto* p = static_cast<unsigned char*>(out);
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < size; ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    p[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  return true;
}

std::optional<uint64_t> ParseByteSize(const std::string& text) {
  std::string t(Trim(text));
  if (t.empty()) return std::nullopt;
  uint64_t scale = 1;
  char last = static_cast<char>(std::toupper(static_cast<unsigned char>(t.back())));
  if (last == 'B') {
    t.pop_back();
    if (t.empty()) return std::nullopt;
    last = static_cast<char>(std::toupper(static_cast<unsigned char>(t.back())));
  }
  if (last == 'K' || last == 'M' || last == 'G') {
    scale = last == 'K' ? 1ull << 10 : last == 'M' ? 1ull << 20 : 1ull << 30;
    t.pop_back();
  }
  auto v = ParseU64(t);
  if (!v || *v > (uint64_t{1} << 50) / scale) return std::nullopt;
  return *v * scale;
}

}  // namespace gpudoctor
