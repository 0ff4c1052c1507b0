// What a gate sees inside the worker: the backend, the options, a log stream (stderr), and small helpers
// shared by the gate implementations (device buffers freed on scope exit, random fills, timing).
#pragma once

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "gates/gate_types.h"
#include "gpu/backend.h"
#include "telemetry/gpu_sampler.h"

namespace gpudoctor {

struct GateContext {
  Backend& backend;
  const GateOptions& options;
  std::string device;       // the request's: a PCI address, an index, or "" for the first (worker_device.h)
  std::FILE* log = stderr;  // diagnostics only; stdout carries the JSON result
  std::optional<int> device_ordinal;  // the backend's ordinal of `device`, once OpenGateDevice mapped it
  // Opens the telemetry sampler of the GPU at a PCI address (gates/worker_sampler.h in the worker, a
  // scripted one in tests); empty: no telemetry.
  GpuSamplerOpener open_sampler;
};

// A device allocation freed when it goes out of scope.
class DeviceBuffer {
 public:
  DeviceBuffer(Backend& backend, DevicePtr p, uint64_t bytes) : backend_(&backend), ptr_(p), bytes_(bytes) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : backend_(o.backend_), ptr_(o.ptr_), bytes_(o.bytes_) {
    o.ptr_ = 0;
  }
  ~DeviceBuffer() {
    if (ptr_) (void)backend_->Free(ptr_);
  }
  DevicePtr get() const { return ptr_; }
  uint64_t bytes() const { return bytes_; }

 private:
  Backend* backend_;
  DevicePtr ptr_;
  uint64_t bytes_;
};

Result<DeviceBuffer> AllocateBuffer(Backend& backend, uint64_t bytes);

// Opens the runtime and the device the options name (mapped to the backend's ordinal the first time, through
// its device list); the first step of every gate after `devices`.
Status OpenGateDevice(GateContext& ctx);

// A failed result for `gate` carrying the error's message and hint.
GateResult FailedGate(const char* gate, const Error& error);
GateResult PassedGate(const char* gate, std::string summary);

// Seconds since `start`, as milliseconds.
double MsSince(std::chrono::steady_clock::time_point start);

// A fresh seed per run (inputs are never the same twice), reported in the details so a failure can be
// reproduced.
uint64_t FreshSeed();
// Fast deterministic fill: splitmix64 words.
void FillRandomWords(uint64_t seed, uint64_t* words, size_t count);

// Launch shape for a grid-stride kernel over `n` elements: 256 threads a block, enough blocks to fill the
// GPU several times over, never more than needed.
Dim3 GridFor(uint64_t n);
inline constexpr Dim3 kBlock256{256, 1, 1};

// The gates, one function each (gates_device.cpp, gate_kernel.cpp, gate_gemm.cpp, gate_memtest.cpp,
// gate_sustained.cpp).
GateResult RunRuntimeGate(GateContext& ctx);
GateResult RunDevicesGate(GateContext& ctx);
GateResult RunContextGate(GateContext& ctx);
GateResult RunAllocGate(GateContext& ctx);
GateResult RunCopyGate(GateContext& ctx);
GateResult RunKernelGate(GateContext& ctx);
GateResult RunGemmGate(GateContext& ctx, GemmType type, bool tf32);
GateResult RunMemtestGate(GateContext& ctx);
GateResult RunSustainedGate(GateContext& ctx);

// Runs `id` (dispatch over the functions above) and stamps its name and elapsed time.
GateResult RunGate(GateId id, GateContext& ctx);

}  // namespace gpudoctor
