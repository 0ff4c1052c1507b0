// Copies between host and device, both ways, from pinned and from pageable host memory, and within device
// memory, over a sweep of sizes up to 1 GiB. Each copy is queued on the stream between two device events;
// the figure is bytes / time of the best run at each size (a device-to-device copy reads and writes each
// byte, so its memory traffic is twice the figure). The check: before the runs at a size the destination is
// overwritten with a poison word, after them every 8-byte word of it must hold its pattern value
//   word(i) = (i + seed) * 0x9e3779b97f4a7c15 ^ seed
// (read back through a pinned bounce buffer when the destination is on the device).
#include <algorithm>
#include <cstring>
#include <memory>

#include "bench/bench_support.h"
#include "core/strings.h"
#include "gates/gate_context.h"

namespace gpudoctor {
namespace {

enum class Kind { kH2DPinned, kH2DPageable, kD2HPinned, kD2HPageable, kD2D };

struct Transfer {
  const char* id;
  const char* title;
  Kind kind;
  uint64_t seed;
};

const Transfer kTransfers[] = {
    {"transfer.h2d_pinned", "Host to device, pinned host memory", Kind::kH2DPinned, 0x1001},
    {"transfer.h2d_pageable", "Host to device, pageable host memory", Kind::kH2DPageable, 0x2002},
    {"transfer.d2h_pinned", "Device to host, pinned host memory", Kind::kD2HPinned, 0x3003},
    {"transfer.d2h_pageable", "Device to host, pageable host memory", Kind::kD2HPageable, 0x4004},
    {"transfer.d2d", "Device to device (copy within device memory)", Kind::kD2D, 0x5005},
};

const Transfer& TransferOf(const std::string& id) {
  for (const auto& t : kTransfers)
    if (id == t.id) return t;
  return kTransfers[0];
}

uint64_t PatternWord(uint64_t seed, uint64_t i) {
  return ((i + seed) * 0x9e3779b97f4a7c15ull) ^ seed;
}

void FillPattern(uint8_t* p, uint64_t bytes, uint64_t seed) {
  uint64_t words = bytes / 8;
  for (uint64_t i = 0; i < words; ++i) {
    uint64_t w = PatternWord(seed, i);
    std::memcpy(p + i * 8, &w, 8);
  }
}

// "" when p[0, bytes) holds the pattern, else what differs.
std::string ComparePattern(const uint8_t* p, uint64_t bytes, uint64_t seed, uint64_t first_word) {
  uint64_t words = bytes / 8, bad = 0, first_bad = 0;
  for (uint64_t i = 0; i < words; ++i) {
    uint64_t w;
    std::memcpy(&w, p + i * 8, 8);
    if (w != PatternWord(seed, first_word + i)) {
      if (!bad) first_bad = first_word + i;
      ++bad;
    }
  }
  if (!bad) return {};
  return std::to_string(bad) + " 8-byte words wrong, first at byte offset 0x" + Hex(first_bad * 8, 1);
}

class TransferBenchmark final : public Benchmark {
 public:
  std::string Name() const override { return "transfer"; }
  std::string Help() const override {
    return "Host-to-device and device-to-host copies from pinned and from pageable host memory, and copies "
           "within device memory, from 64 KiB (4 KiB at the standard level) to 1 GiB; every byte that "
           "arrives is checked.";
  }
  std::vector<BenchSpec> Specs() const override {
    std::vector<BenchSpec> out;
    for (const auto& t : kTransfers)
      out.push_back({t.id, "transfer", t.title, "GB/s", "transfer size", "bytes", true});
    return out;
  }
  std::chrono::seconds TimeLimit(BenchLevel level) const override {
    return std::chrono::seconds(level == BenchLevel::kQuick ? 60 : 120);
  }
  void Run(BenchContext& ctx, const std::vector<std::string>& ids) override;
};

// The buffers of one run of the group, allocated once at the largest size.
struct Buffers {
  DevicePtr x = 0, y = 0;  // device: x is the host copies' end and the on-device copy's source, y its target
  std::optional<PinnedBuffer> pinned;
  std::unique_ptr<uint8_t[]> pageable;
  uint64_t max_bytes = 0;
};

class TransferRun {
 public:
  TransferRun(BenchContext& ctx, Buffers& b) : ctx_(ctx), b_(b) {}

  // Copies device memory [p, p + bytes) back and compares it with the pattern, through the pinned buffer
  // in pieces (or plain copies into pageable memory when pinning failed).
  Result<std::string> CheckDevice(DevicePtr p, uint64_t bytes, uint64_t seed) {
    uint64_t chunk = std::min<uint64_t>(64ull << 20, b_.max_bytes);
    uint8_t* bounce = b_.pinned ? b_.pinned->data() : nullptr;
    std::unique_ptr<uint8_t[]> plain;
    if (!bounce) {
      plain = std::make_unique<uint8_t[]>(chunk);
      bounce = plain.get();
    }
    for (uint64_t off = 0; off < bytes; off += chunk) {
      uint64_t n = std::min(chunk, bytes - off);
      Status s = b_.pinned ? ctx_.backend.CopyToHostAsync(bounce, p + off, n)
                           : ctx_.backend.CopyToHost(bounce, p + off, n);
      if (s) s = ctx_.backend.Synchronize();
      if (!s) return s.error();
      std::string wrong = ComparePattern(bounce, n, seed, off / 8);
      if (!wrong.empty()) return wrong;
    }
    return std::string();
  }

  // Puts the pattern into device memory [p, p + bytes) from host memory.
  Status FillDevice(DevicePtr p, uint64_t bytes, uint64_t seed) {
    uint8_t* src = b_.pinned ? b_.pinned->data() : b_.pageable.get();
    FillPattern(src, bytes, seed);
    Status s =
        b_.pinned ? ctx_.backend.CopyToDeviceAsync(p, src, bytes) : ctx_.backend.CopyToDevice(p, src, bytes);
    if (s) s = ctx_.backend.Synchronize();
    return s;
  }

 private:
  BenchContext& ctx_;
  Buffers& b_;
};

void TransferBenchmark::Run(BenchContext& ctx, const std::vector<std::string>& ids) {
  const auto specs = Specs();
  if (auto s = OpenBenchDevice(ctx); !s) return FailAll(ctx, specs, ids, s.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailAll(ctx, specs, ids, mem.error());
  bool quick = ctx.options.level == BenchLevel::kQuick;
  uint64_t reserve = std::min<uint64_t>(mem->free_bytes / 8, 512ull << 20);
  uint64_t limit = mem->free_bytes > reserve ? (mem->free_bytes - reserve) / 2 : 0;
  auto wanted =
      quick ? GeometricSizes(64ull << 10, 1ull << 30, 16) : GeometricSizes(4ull << 10, 1ull << 30, 4);
  auto sizes = FitSizes(wanted, limit, 4ull << 10);
  if (sizes.empty())
    return FailAll(ctx, specs, ids,
                   EnvError("not enough free device memory (" + FormatBytes(mem->free_bytes) + ")"));

  Buffers b;
  b.max_bytes = sizes.back();
  auto dx = AllocateBuffer(ctx.backend, b.max_bytes), dy = AllocateBuffer(ctx.backend, b.max_bytes);
  for (auto* buf : {&dx, &dy})
    if (!*buf) return FailAll(ctx, specs, ids, buf->error());
  b.x = dx->get();
  b.y = dy->get();
  std::string pinned_note;
  auto pinned =
      PinnedBuffer::Allocate(ctx.backend, b.max_bytes, std::min<uint64_t>(b.max_bytes, 64ull << 20));
  if (pinned) {
    if (pinned->bytes() < b.max_bytes)
      pinned_note = "pinned memory capped at " + FormatBytes(pinned->bytes()) + " by the system";
    b.pinned.emplace(std::move(pinned).value());
  } else {
    pinned_note = "no pinned memory: " + pinned.error().message;
  }
  b.pageable.reset(new uint8_t[b.max_bytes]);  // not zeroed: every use writes it first
  TransferRun run(ctx, b);

  for (const auto& id : ids) {
    ctx.sink.Begin(id);
    auto started = std::chrono::steady_clock::now();
    const Transfer& t = TransferOf(id);
    BenchResult r;
    r.spec = SpecById(specs, id);
    bool pinned_kind = t.kind == Kind::kH2DPinned || t.kind == Kind::kD2HPinned;
    if (pinned_kind && !b.pinned) {
      r = ErrorResult(r.spec, EnvError(pinned_note));
      r.elapsed_ms = MsSince(started);
      ctx.sink.Emit(r);
      continue;
    }
    uint8_t* host = pinned_kind ? b.pinned->data() : b.pageable.get();
    uint64_t host_bytes = pinned_kind ? b.pinned->bytes() : b.max_bytes;
    std::optional<Error> failure;
    r.check = BenchCheck::kPassed;
    // The source: the pattern in x for the copies that start on the device, once; in host memory before
    // each size (the device check reads back through the pinned buffer).
    bool to_device = t.kind == Kind::kH2DPinned || t.kind == Kind::kH2DPageable;
    if (!to_device)
      if (auto prepared = run.FillDevice(b.x, b.max_bytes, t.seed); !prepared) failure = prepared.error();
    auto copy = [&](uint64_t bytes) -> Status {
      switch (t.kind) {
        case Kind::kH2DPinned:
        case Kind::kH2DPageable:
          return ctx.backend.CopyToDeviceAsync(b.x, host, bytes);
        case Kind::kD2HPinned:
        case Kind::kD2HPageable:
          return ctx.backend.CopyToHostAsync(host, b.x, bytes);
        case Kind::kD2D:
          return ctx.backend.CopyOnDevice(b.y, b.x, bytes);
      }
      return Ok{};
    };
    for (uint64_t bytes : sizes) {
      if (failure) break;
      if (bytes > host_bytes && t.kind != Kind::kD2D) break;  // pinned memory was capped
      bool big = bytes >= (64ull << 20);
      int reps = big ? (t.kind == Kind::kH2DPageable || t.kind == Kind::kD2HPageable ? 3 : 8) : 20;
      if (!quick) reps *= 2;
      if (to_device) FillPattern(host, bytes, t.seed);
      // Poison the destination.
      Status s = Ok{};
      if (t.kind == Kind::kD2HPinned || t.kind == Kind::kD2HPageable)
        std::memset(host, 0xa5, bytes);
      else
        s = ctx.backend.Memset32(t.kind == Kind::kD2D ? b.y : b.x, 0xdeadbeefu, bytes / 4);
      if (s) s = copy(bytes);  // warm-up
      if (s) s = ctx.backend.Synchronize();
      if (!s) {
        failure = s.error();
        break;
      }
      auto ms = BestTime(ctx.backend, reps, [&] { return copy(bytes); });
      if (!ms) {
        failure = ms.error();
        break;
      }
      double best = *ms;
      r.points.push_back(
          {static_cast<double>(bytes), best > 0 ? static_cast<double>(bytes) / (best * 1e6) : 0});
      std::string wrong;
      if (t.kind == Kind::kD2HPinned || t.kind == Kind::kD2HPageable) {
        wrong = ComparePattern(host, bytes, t.seed, 0);
      } else {
        auto c = run.CheckDevice(t.kind == Kind::kD2D ? b.y : b.x, bytes, t.seed);
        if (!c) {
          failure = c.error();
          break;
        }
        wrong = *c;
      }
      if (!wrong.empty() && r.check == BenchCheck::kPassed) {
        r.check = BenchCheck::kFailed;
        r.check_detail = "at " + FormatBytes(bytes) + ": " + wrong;
      }
      if (t.kind == Kind::kH2DPinned && bytes == sizes.back())
        ReadTelemetryUnderLoad(ctx, id, [&] { return copy(bytes); });  // the link's state under load
    }
    if (failure) {
      BenchResult e = ErrorResult(r.spec, *failure);
      e.points = r.points;
      r = e;
    } else {
      // Within the device a small copy may stay in the cache: the figure counts 256 MiB and more.
      r.best = BestOf(r.points, true, t.kind == Kind::kD2D ? static_cast<double>(kBeyondCacheBytes) : 0.0);
      r.note = "best of " + std::string(quick ? "3-20" : "6-40") +
               " back-to-back runs per size, device events between";
      if (t.kind == Kind::kD2D)
        r.note +=
            "; each byte is read and written, so memory traffic is twice the figure; the figure counts "
            "copies "
            "of 256 MiB and more (smaller ones may sit in the cache)";
      if (pinned_kind && !pinned_note.empty()) r.note += "; " + pinned_note;
    }
    r.elapsed_ms = MsSince(started);
    ctx.sink.Emit(r);
  }
}

}  // namespace

std::unique_ptr<Benchmark> MakeTransferBenchmark() {
  return std::make_unique<TransferBenchmark>();
}

}  // namespace gpudoctor
