// Worker arguments, hex and sizes (see worker_args.h).
#include "collectives/worker_args.h"

#include <cctype>

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr const char* kWorker = "__worker";

std::string OpsList(const std::vector<CollectiveOp>& ops) {
  std::string out;
  for (auto op : ops) out += (out.empty() ? "" : ",") + std::string(ToString(op));
  return out;
}

}  // namespace

bool IsCollectiveWorkerKind(const std::string& kind) {
  return kind == kWorkerCollectiveRank || kind == kWorkerP2pMatrix;
}

std::vector<std::string> CollectiveWorkerArguments(const CollectiveWorkerRequest& r) {
  std::vector<std::string> a = {
      kWorker, r.kind, "--backend", ToString(r.backend), "--device", std::to_string(r.device)};
  if (r.kind == kWorkerP2pMatrix) {
    a.insert(a.end(), {"--p2p-bytes", std::to_string(r.p2p_bytes)});
    return a;
  }
  a.insert(a.end(),
           {"--rank", std::to_string(r.rank), "--ranks", std::to_string(r.ranks), "--id", r.unique_id_hex,
            "--ops", OpsList(r.options.ops), "--min-bytes", std::to_string(r.options.min_bytes),
            "--max-bytes", std::to_string(r.options.max_bytes), "--factor", std::to_string(r.options.factor),
            "--iters", std::to_string(r.options.iters), "--warmup", std::to_string(r.options.warmup)});
  return a;
}

Result<CollectiveWorkerRequest> ParseCollectiveWorkerArguments(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[0] != kWorker || !IsCollectiveWorkerKind(args[1]))
    return UserError("usage: __worker collective-rank|p2p-matrix [options]");
  CollectiveWorkerRequest r;
  r.kind = args[1];
  for (size_t i = 2; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return UserError("option " + args[i] + " has no value");
    const std::string& key = args[i];
    const std::string& value = args[i + 1];
    auto number = [&](uint64_t max) -> Result<uint64_t> {
      auto v = ParseU64(value);
      if (!v || *v > max) return UserError(key + ": not a number in range (" + value + ")");
      return *v;
    };
    if (key == "--backend") {
      auto b = BackendKindFromString(value);
      if (!b) return UserError("--backend: unknown backend " + value);
      r.backend = *b;
    } else if (key == "--ops") {
      auto ops = ParseCollectiveOps(value);
      if (!ops) return ops.error();
      r.options.ops = *ops;
    } else if (key == "--id") {
      if (value.size() != 256) return UserError("--id: not 256 hex digits");
      r.unique_id_hex = value;
    } else {
      auto v = number(uint64_t{1} << 40);
      if (!v) return v.error();
      if (key == "--rank")
        r.rank = static_cast<int>(*v);
      else if (key == "--ranks")
        r.ranks = static_cast<int>(*v);
      else if (key == "--device")
        r.device = static_cast<int>(*v);
      else if (key == "--min-bytes")
        r.options.min_bytes = *v;
      else if (key == "--max-bytes")
        r.options.max_bytes = *v;
      else if (key == "--factor")
        r.options.factor = *v;
      else if (key == "--iters")
        r.options.iters = static_cast<int>(*v);
      else if (key == "--warmup")
        r.options.warmup = static_cast<int>(*v);
      else if (key == "--p2p-bytes")
        r.p2p_bytes = *v;
      else
        return UserError("unknown option " + key);
    }
  }
  if (r.ranks < 1 || r.ranks > 1 << 20 || r.rank >= r.ranks) return UserError("--rank must be below --ranks");
  if (r.kind == kWorkerCollectiveRank && r.unique_id_hex.empty()) return UserError("--id is required");
  if (r.options.iters < 1) return UserError("--iters must be at least 1");
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
