// The first gates: the runtime loads, devices enumerate, a context opens, most of the free memory can be
// allocated and touched, and host<->device copies bring the data back unchanged. Also the gate dispatch
// and the helpers of gate_context.h.
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "core/strings.h"
#include "gates/gate_context.h"
#include "worker/worker_device.h"

namespace gpudoctor {

Result<DeviceBuffer> AllocateBuffer(Backend& backend, uint64_t bytes) {
  auto p = backend.Allocate(bytes);
  if (!p) return p.error();
  return DeviceBuffer(backend, *p, bytes);
}

Status OpenGateDevice(GateContext& ctx) {
  if (ctx.device_ordinal) {
    if (auto s = ctx.backend.LoadRuntime(); !s) return s;
    return ctx.backend.OpenDevice(*ctx.device_ordinal);
  }
  auto ordinal = OpenWorkerDevice(ctx.backend, ctx.device);
  if (!ordinal) return ordinal.error();
  ctx.device_ordinal = *ordinal;
  return Ok{};
}

GateResult FailedGate(const char* gate, const Error& error) {
  GateResult r;
  r.gate = gate;
  r.status = GateStatus::kFail;
  r.summary = error.message;
  r.hint = error.hint;
  return r;
}

GateResult PassedGate(const char* gate, std::string summary) {
  GateResult r;
  r.gate = gate;
  r.status = GateStatus::kPass;
  r.summary = std::move(summary);
  return r;
}

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

uint64_t FreshSeed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
         static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

void FillRandomWords(uint64_t seed, uint64_t* words, size_t count) {
  uint64_t x = seed;
  for (size_t i = 0; i < count; ++i) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    words[i] = z ^ (z >> 31);
  }
}

Dim3 GridFor(uint64_t n) {
  uint64_t blocks = (n + 255) / 256;
  return Dim3{static_cast<uint32_t>(std::clamp<uint64_t>(blocks, 1, 8192)), 1, 1};
}

GateResult RunRuntimeGate(GateContext& ctx) {
  Status s = ctx.backend.LoadRuntime();
  GateResult r = s ? PassedGate("runtime", "") : FailedGate("runtime", s.error());
  r.libraries = ctx.backend.Libraries();
  r.runtime_version = ctx.backend.RuntimeVersion();
  if (s && !r.libraries.empty()) {
    const BackendLibrary& lib = r.libraries.front();
    r.summary =
        r.runtime_version + " from " + lib.path + " (" + (lib.where.empty() ? lib.origin : lib.where) + ")";
  }
  return r;
}

GateResult RunDevicesGate(GateContext& ctx) {
  if (auto s = ctx.backend.LoadRuntime(); !s) return FailedGate("devices", s.error());
  auto devices = ctx.backend.Devices();
  GateResult r;
  r.libraries = ctx.backend.Libraries();
  r.runtime_version = ctx.backend.RuntimeVersion();
  if (!devices) {
    GateResult f = FailedGate("devices", devices.error());
    f.libraries = r.libraries;
    f.runtime_version = r.runtime_version;
    return f;
  }
  r.gate = "devices";
  r.devices = *devices;
  std::string lib_path = r.libraries.empty() ? std::string() : r.libraries.front().path;
  if (devices->empty()) {
    r.status = GateStatus::kFail;
    r.summary =
        "the " + ctx.backend.DisplayName() + " runtime was found (" + lib_path + ") but sees no device";
    if (!r.libraries.empty() && !r.libraries.front().detail.empty())
      r.details.push_back(r.libraries.front().detail);
    return r;
  }
  r.status = GateStatus::kPass;
  r.summary = std::to_string(devices->size()) + (devices->size() == 1 ? " device" : " devices");
  for (const auto& d : *devices)
    r.details.push_back("#" + std::to_string(d.index) + " " + d.name + " (" +
                        (d.arch.empty() ? "arch n/a" : d.arch) + ", " + FormatBytes(d.memory_total_bytes) +
                        ") at " + d.pci_address);
  r.figures.push_back({"devices", static_cast<double>(devices->size()), ""});
  return r;
}

GateResult RunContextGate(GateContext& ctx) {
  auto start = std::chrono::steady_clock::now();
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate("context", s.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailedGate("context", mem.error());
  double ms = MsSince(start);
  GateResult r =
      PassedGate("context", "device " + std::to_string(ctx.device_ordinal.value_or(0)) + " open; " +
                                FormatBytes(mem->free_bytes) + " free of " + FormatBytes(mem->total_bytes));
  r.figures.push_back({"free memory", static_cast<double>(mem->free_bytes) / (1ull << 30), "GiB"});
  r.figures.push_back({"runtime and context start", ms, "ms"});
  return r;
}

GateResult RunAllocGate(GateContext& ctx) {
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate("alloc", s.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailedGate("alloc", mem.error());
  // 90% of what is free, rounded down to 2 MiB: the rest stays for the runtime's own needs.
  uint64_t bytes =
      static_cast<uint64_t>(static_cast<double>(mem->free_bytes) * 0.90) / (2ull << 20) * (2ull << 20);
  if (ctx.options.inject == InjectedFault::kOversizeAlloc) bytes = mem->total_bytes * 2;
  if (bytes < 4)
    return FailedGate("alloc", EnvError("no free device memory (" + FormatBytes(mem->free_bytes) + ")"));
  auto start = std::chrono::steady_clock::now();
  auto buf = AllocateBuffer(ctx.backend, bytes);
  if (!buf) return FailedGate("alloc", buf.error().With("allocating 90% of the free memory"));
  // Touch every page: an allocation the driver cannot back shows up here, not later in a user's job.
  if (auto s = ctx.backend.Memset32(buf->get(), 0x5a5a5a5au, bytes / 4); !s)
    return FailedGate("alloc", s.error());
  if (auto s = ctx.backend.Synchronize(); !s) return FailedGate("alloc", s.error());
  double ms = MsSince(start);
  GateResult r = PassedGate("alloc", FormatBytes(bytes) + " allocated and written (" +
                                         std::to_string(static_cast<int>(100.0 * bytes / mem->free_bytes)) +
                                         "% of the free memory)");
  r.figures.push_back({"allocated", static_cast<double>(bytes) / (1ull << 30), "GiB"});
  r.figures.push_back({"allocate and fill", ms, "ms"});
  return r;
}

GateResult RunCopyGate(GateContext& ctx) {
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate("copy", s.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailedGate("copy", mem.error());
  uint64_t want = ctx.options.level == VerifyLevel::kQuick      ? (128ull << 20)
                  : ctx.options.level == VerifyLevel::kStandard ? (1ull << 30)
                                                                : (4ull << 30);
  uint64_t bytes = std::min<uint64_t>(want, mem->free_bytes / 4) / 8 * 8;
  if (bytes == 0) return FailedGate("copy", EnvError("no free device memory for the copy test"));
  uint64_t seed = FreshSeed();
  std::vector<uint64_t> sent(bytes / 8), back(bytes / 8, 0);
  FillRandomWords(seed, sent.data(), sent.size());
  auto buf = AllocateBuffer(ctx.backend, bytes);
  if (!buf) return FailedGate("copy", buf.error());
  auto t0 = std::chrono::steady_clock::now();
  if (auto s = ctx.backend.CopyToDevice(buf->get(), sent.data(), bytes); !s)
    return FailedGate("copy", s.error());
  if (auto s = ctx.backend.Synchronize(); !s) return FailedGate("copy", s.error());
  double h2d_ms = MsSince(t0);
  auto t1 = std::chrono::steady_clock::now();
  if (auto s = ctx.backend.CopyToHost(back.data(), buf->get(), bytes); !s)
    return FailedGate("copy", s.error());
  double d2h_ms = MsSince(t1);
  size_t bad = 0, first_bad = 0;
  for (size_t i = 0; i < sent.size(); ++i) {
    if (sent[i] != back[i]) {
      if (!bad) first_bad = i;
      ++bad;
    }
  }
  auto gbps = [bytes](double ms) { return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : 0.0; };
  GateResult r;
  r.gate = "copy";
  r.details.push_back("size " + FormatBytes(bytes) + ", pageable host memory, random data (seed 0x" +
                      Hex(seed, 16) + ")");
  r.figures.push_back({"host to device", gbps(h2d_ms), "GB/s"});
  r.figures.push_back({"device to host", gbps(d2h_ms), "GB/s"});
  if (bad) {
    r.status = GateStatus::kFail;
    r.summary = std::to_string(bad) + " of " + std::to_string(sent.size()) +
                " 8-byte words came back changed; first at byte offset 0x" + Hex(first_bad * 8, 1);
    r.hint =
        "data corruption over PCIe or in device memory: reseat the card, check the PCIe link, run --level "
        "long";
    return r;
  }
  r.status = GateStatus::kPass;
  char line[128];
  std::snprintf(line, sizeof line, "%s round trip intact; %.1f GB/s to the device, %.1f GB/s back",
                FormatBytes(bytes).c_str(), gbps(h2d_ms), gbps(d2h_ms));
  r.summary = line;
  return r;
}

GateResult RunGate(GateId id, GateContext& ctx) {
  auto start = std::chrono::steady_clock::now();
  GateResult r;
  switch (id) {
    case GateId::kRuntime:
      r = RunRuntimeGate(ctx);
      break;
    case GateId::kDevices:
      r = RunDevicesGate(ctx);
      break;
    case GateId::kContext:
      r = RunContextGate(ctx);
      break;
    case GateId::kAlloc:
      r = RunAllocGate(ctx);
      break;
    case GateId::kCopy:
      r = RunCopyGate(ctx);
      break;
    case GateId::kKernel:
      r = RunKernelGate(ctx);
      break;
    case GateId::kGemmFp32:
      r = RunGemmGate(ctx, GemmType::kF32, false);
      break;
    case GateId::kGemmTf32:
      r = RunGemmGate(ctx, GemmType::kF32, true);
      break;
    case GateId::kGemmFp16:
      r = RunGemmGate(ctx, GemmType::kF16, false);
      break;
    case GateId::kGemmBf16:
      r = RunGemmGate(ctx, GemmType::kBF16, false);
      break;
    case GateId::kMemtest:
      r = RunMemtestGate(ctx);
      break;
    case GateId::kSustained:
      r = RunSustainedGate(ctx);
      break;
  }
  r.gate = SpecOf(id).name;
  r.elapsed_ms = MsSince(start);
  if (r.libraries.empty()) r.libraries = ctx.backend.Libraries();  // which compiler / BLAS file was used
  return r;
}

}  // namespace gpudoctor
