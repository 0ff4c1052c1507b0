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
  TransferRun(BenchContext& ctx, Buffers& b, std::vector<uint64_t> sizes, std::string pinned_note)
      : ctx_(ctx),
        b_(b),
        sizes_(std::move(sizes)),
        pinned_note_(std::move(pinned_note)),
        quick_(ctx.options.level == BenchLevel::kQuick) {}

  // One transfer's sweep over the sizes, checked at each.
  BenchResult Measure(const Transfer& t, const BenchSpec& spec) {
    bool pinned_kind = t.kind == Kind::kH2DPinned || t.kind == Kind::kD2HPinned;
    if (pinned_kind && !b_.pinned) return ErrorResult(spec, EnvError(pinned_note_));
    uint8_t* host = pinned_kind ? b_.pinned->data() : b_.pageable.get();
    uint64_t host_bytes = pinned_kind ? b_.pinned->bytes() : b_.max_bytes;
    BenchResult r;
    r.spec = spec;
    r.check = BenchCheck::kPassed;
    std::optional<Error> failure;
    // The source: the pattern in x for the copies that start on the device, once; in host memory before
    // each size (the device check reads back through the pinned buffer).
    if (!ToDevice(t.kind))
      if (auto prepared = FillDevice(b_.x, b_.max_bytes, t.seed); !prepared) failure = prepared.error();
    for (uint64_t bytes : sizes_) {
      if (failure) break;
      if (bytes > host_bytes && t.kind != Kind::kD2D) break;  // pinned memory was capped
      auto wrong = MeasureSize(t, host, bytes, r);
      if (!wrong) {
        failure = wrong.error();
        break;
      }
      if (!wrong->empty() && r.check == BenchCheck::kPassed) {
        r.check = BenchCheck::kFailed;
        r.check_detail = "at " + FormatBytes(bytes) + ": " + *wrong;
      }
      if (t.kind == Kind::kH2DPinned && bytes == sizes_.back())
        ReadTelemetryUnderLoad(ctx_, spec.id, [&] { return Copy(t, host, bytes); });  // the link under load
    }
    if (failure) {
      BenchResult e = ErrorResult(r.spec, *failure);
      e.points = r.points;
      return e;
    }
    // Within the device a small copy may stay in the cache: the figure counts 256 MiB and more.
    r.best = BestOf(r.points, true, t.kind == Kind::kD2D ? static_cast<double>(kBeyondCacheBytes) : 0.0);
    r.note = Note(t.kind, pinned_kind);
    return r;
  }

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
  static bool ToDevice(Kind kind) { return kind == Kind::kH2DPinned || kind == Kind::kH2DPageable; }
  static bool ToHost(Kind kind) { return kind == Kind::kD2HPinned || kind == Kind::kD2HPageable; }

  // One copy of `bytes`, queued on the stream.
  Status Copy(const Transfer& t, uint8_t* host, uint64_t bytes) {
    switch (t.kind) {
      case Kind::kH2DPinned:
      case Kind::kH2DPageable:
        return ctx_.backend.CopyToDeviceAsync(b_.x, host, bytes);
      case Kind::kD2HPinned:
      case Kind::kD2HPageable:
        return ctx_.backend.CopyToHostAsync(host, b_.x, bytes);
      case Kind::kD2D:
        return ctx_.backend.CopyOnDevice(b_.y, b_.x, bytes);
    }
    return Ok{};
  }

  // One size: the source's pattern and the destination's poison, an untimed copy, the timed copies (a point
  // added to `r`), then the check of the destination: "" when it holds the pattern, else what differs.
  Result<std::string> MeasureSize(const Transfer& t, uint8_t* host, uint64_t bytes, BenchResult& r) {
    bool big = bytes >= (64ull << 20);
    int reps = big ? (t.kind == Kind::kH2DPageable || t.kind == Kind::kD2HPageable ? 3 : 8) : 20;
    if (!quick_) reps *= 2;
    if (ToDevice(t.kind)) FillPattern(host, bytes, t.seed);
    Status s = Ok{};
    if (ToHost(t.kind))
      std::memset(host, 0xa5, bytes);
    else
      s = ctx_.backend.Memset32(t.kind == Kind::kD2D ? b_.y : b_.x, 0xdeadbeefu, bytes / 4);
    if (s) s = Copy(t, host, bytes);  // warm-up
    if (s) s = ctx_.backend.Synchronize();
    if (!s) return s.error();
    auto ms = BestTime(ctx_.backend, reps, [&] { return Copy(t, host, bytes); });
    if (!ms) return ms.error();
    r.points.push_back({static_cast<double>(bytes), *ms > 0 ? static_cast<double>(bytes) / (*ms * 1e6) : 0});
    if (ToHost(t.kind)) return ComparePattern(host, bytes, t.seed, 0);
    return CheckDevice(t.kind == Kind::kD2D ? b_.y : b_.x, bytes, t.seed);
  }

  std::string Note(Kind kind, bool pinned_kind) const {
    std::string note = "best of " + std::string(quick_ ? "3-20" : "6-40") +
                       " back-to-back runs per size, device events between";
    if (kind == Kind::kD2D)
      note +=
          "; each byte is read and written, so memory traffic is twice the figure; the figure counts copies "
          "of 256 MiB and more (smaller ones may sit in the cache)";
    if (pinned_kind && !pinned_note_.empty()) note += "; " + pinned_note_;
    return note;
  }

  BenchContext& ctx_;
  Buffers& b_;
  std::vector<uint64_t> sizes_;
  std::string pinned_note_;  // why pinned memory is capped or missing; "" when it is not
  bool quick_;
};

// The transfer sizes of the sweep: the two device buffers of the largest size, with room left for the
// runtime.
std::vector<uint64_t> TransferSizes(uint64_t free_bytes, bool quick) {
  uint64_t reserve = std::min<uint64_t>(free_bytes / 8, 512ull << 20);
  uint64_t limit = free_bytes > reserve ? (free_bytes - reserve) / 2 : 0;
  auto wanted =
      quick ? GeometricSizes(64ull << 10, 1ull << 30, 16) : GeometricSizes(4ull << 10, 1ull << 30, 4);
  return FitSizes(wanted, limit, 4ull << 10);
}

// Pins host memory of the largest size (or less, down to 64 MiB, when the system caps it) into `b`; says
// why pinned memory is capped or missing, "" when it is not.
std::string AllocatePinned(Backend& backend, Buffers& b) {
  auto pinned = PinnedBuffer::Allocate(backend, b.max_bytes, std::min<uint64_t>(b.max_bytes, 64ull << 20));
  if (!pinned) return "no pinned memory: " + pinned.error().message;
  std::string note;
  if (pinned->bytes() < b.max_bytes)
    note = "pinned memory capped at " + FormatBytes(pinned->bytes()) + " by the system";
  b.pinned.emplace(std::move(pinned).value());
  return note;
}

void TransferBenchmark::Run(BenchContext& ctx, const std::vector<std::string>& ids) {
  const auto specs = Specs();
  if (auto s = OpenBenchDevice(ctx); !s) return FailAll(ctx, specs, ids, s.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailAll(ctx, specs, ids, mem.error());
  auto sizes = TransferSizes(mem->free_bytes, ctx.options.level == BenchLevel::kQuick);
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
  std::string pinned_note = AllocatePinned(ctx.backend, b);
  b.pageable.reset(new uint8_t[b.max_bytes]);  // not zeroed: every use writes it first
  TransferRun run(ctx, b, sizes, pinned_note);
  for (const auto& id : ids) {
    ctx.sink.Begin(id);
    auto started = std::chrono::steady_clock::now();
    BenchResult r = run.Measure(TransferOf(id), SpecById(specs, id));
    r.elapsed_ms = MsSince(started);
    ctx.sink.Emit(r);
  }
}

}  // namespace

std::unique_ptr<Benchmark> MakeTransferBenchmark() {
  return std::make_unique<TransferBenchmark>();
}

}  // namespace gpudoctor
