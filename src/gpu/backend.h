// The vendor-neutral GPU interface the gates and the benchmarks are written against: devices, a context,
// memory (device and pinned host) and copies, kernels compiled at run time from source, launches, events
// and BLAS GEMM (telemetry is telemetry/'s per-GPU sampler). The CUDA (gpu/cuda/) and HIP (gpu/hip/)
// implementations load their vendor libraries at run time; the scripted fake (gpu/fake/) answers without a
// GPU. Nothing here names a vendor type.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu_ref.h"
#include "core/load_status.h"
#include "core/result.h"

namespace gpudoctor {

// Bump when a method is added or its meaning changes (the worker protocol reports it).
// 2: pinned host memory, asynchronous and device-to-device copies, the bare driver launch, more telemetry.
// 3: peer-to-peer between the devices of one process (CanAccessPeer, EnablePeerAccess, CopyPeer).
// 4: ReadTelemetry gone (telemetry/gpu_sampler.h reads the GPU a worker runs on).
inline constexpr int kGpuBackendApiVersion = 4;

enum class BackendKind { kCuda, kHip, kFake };
const char* ToString(BackendKind kind);  // "cuda", "hip", "fake"
std::optional<BackendKind> BackendKindFromString(std::string_view s);

// One vendor library as loaded (or not) by a backend, for the report.
struct BackendLibrary {
  std::string role;                           // "runtime", "compiler", "blas"
  std::string name;                           // "libcuda", "nvrtc", "cublas", "amdhip64", "hiprtc", "rocblas"
  LoadStatus status = LoadStatus::kNotTried;  // "loaded", "absent", "broken", "not-tried" in the JSON
  std::string path;                           // the file the loader mapped
  std::string origin;                         // "framework", "sdk", "system" (gpu/api/library_search.h)
  std::string where;    // "torch/lib of /venv/.../site-packages", "ROCM_PATH=/opt/rocm", "system loader"
  std::string version;  // "13.0", "5.2.21153", "" when unknown
  std::string detail;   // dlerror text, missing symbols
};

// A device as the runtime reports it: its identity (core/gpu_ref.h) and what the runtime says of it.
struct DeviceInfo : GpuRef {
  std::string arch;  // "sm_90", "gfx1100"
  uint64_t memory_total_bytes = 0;
  std::optional<uint32_t> compute_units;  // SMs or CUs
};

struct DeviceMemory {
  uint64_t free_bytes = 0;
  uint64_t total_bytes = 0;
};

// Opaque handles: numbers the backend maps to its own objects.
using DevicePtr = uint64_t;
using ModuleId = uint64_t;
using FunctionId = uint64_t;
using EventId = uint64_t;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// Kernel arguments by value, in order; each slot is 8 bytes (pointers, 64-bit counts, floats widened by the
// caller's choice of type), and the launch passes a pointer to each.
class KernelArgs {
 public:
  KernelArgs& Ptr(DevicePtr p) { return Push(&p, sizeof p); }
  KernelArgs& U64(uint64_t v) { return Push(&v, sizeof v); }
  KernelArgs& U32(uint32_t v) { return Push(&v, sizeof v); }
  KernelArgs& F32(float v) { return Push(&v, sizeof v); }
  size_t size() const { return slots_.size(); }
  // Pointers to each argument's bytes, valid while this object lives and is not changed.
  std::vector<void*> Pointers() const;
  // The same into `out` without allocating (the launch path): false when more than `capacity` arguments.
  bool PointersInto(void** out, size_t capacity) const;
  // The raw slot, for the fake backend's emulation.
  uint64_t Raw(size_t i) const { return slots_.at(i); }
  float RawF32(size_t i) const;

 private:
  KernelArgs& Push(const void* v, size_t n);
  std::vector<uint64_t> slots_;
};

enum class GemmType { kF32, kF16, kBF16 };
const char* ToString(GemmType t);  // "fp32", "fp16", "bf16"
size_t ElementBytes(GemmType t);

// C (m x n) = A (m x k) * B (k x n), column-major, no transposes, alpha 1, beta 0; A, B and C all of `type`
// (C in fp32 for kF32), accumulation in fp32. `tf32` lets an fp32 GEMM use TF32 tensor cores.
struct GemmRequest {
  GemmType type = GemmType::kF32;
  bool tf32 = false;
  int m = 0, n = 0, k = 0;
  DevicePtr a = 0, b = 0, c = 0;
};

// One launch with everything resolved ahead (function, shape, argument pointers), calling the vendor's launch
// entry point directly: the latency benchmark's reference for "a launch with no gpudoctor code around it".
// Returns the vendor's own result code, 0 on success.
using DriverLaunch = std::function<int()>;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind Kind() const = 0;
  // "CUDA", "HIP", "fake": for messages.
  virtual std::string DisplayName() const = 0;

  // Loads the runtime library and initializes it. An error means no usable runtime; the libraries' report
  // says what was tried.
  virtual Status LoadRuntime() = 0;
  // Every library this backend tried so far (runtime first; compiler and BLAS once used).
  virtual std::vector<BackendLibrary> Libraries() const = 0;
  // "CUDA driver 13.0" / "HIP 5.2.21153".
  virtual std::string RuntimeVersion() const = 0;

  virtual Result<std::vector<DeviceInfo>> Devices() = 0;
  // Makes `index` current (the context); everything below runs on it. Opening another device later keeps
  // what was made on the first (memory, modules, events): a process may hold buffers on several GPUs and
  // switch between them, as the peer-to-peer matrix does.
  virtual Status OpenDevice(int index) = 0;
  virtual Result<DeviceMemory> MemoryInfo() = 0;

  virtual Result<DevicePtr> Allocate(uint64_t bytes) = 0;
  virtual Status Free(DevicePtr p) = 0;
  virtual Status CopyToDevice(DevicePtr dst, const void* src, uint64_t bytes) = 0;
  virtual Status CopyToHost(void* dst, DevicePtr src, uint64_t bytes) = 0;
  virtual Status Memset32(DevicePtr dst, uint32_t value, uint64_t count) = 0;

  // Page-locked ("pinned") host memory, which the copy engines read and write directly.
  virtual Result<void*> AllocatePinnedHost(uint64_t bytes) = 0;
  virtual Status FreePinnedHost(void* p) = 0;
  // Copies queued on the stream that launches and events use, in order with them; they return before the
  // copy ends when the host side is pinned (the runtime may wait for a pageable buffer to be read).
  virtual Status CopyToDeviceAsync(DevicePtr dst, const void* src, uint64_t bytes) = 0;
  virtual Status CopyToHostAsync(void* dst, DevicePtr src, uint64_t bytes) = 0;
  virtual Status CopyOnDevice(DevicePtr dst, DevicePtr src, uint64_t bytes) = 0;

  // Compiles `source` for the open device (NVRTC / hiprtc) and loads it; `defines` become -D options.
  virtual Result<ModuleId> CompileModule(const std::string& source, const std::string& program_name,
                                         const std::vector<std::string>& defines) = 0;
  virtual Result<FunctionId> GetFunction(ModuleId module, const std::string& name) = 0;
  virtual Status Launch(FunctionId fn, Dim3 grid, Dim3 block, const KernelArgs& args) = 0;
  // The bare driver launch of `fn` (see DriverLaunch); `args` are copied into it.
  virtual Result<DriverLaunch> PrepareDriverLaunch(FunctionId fn, Dim3 grid, Dim3 block,
                                                   const KernelArgs& args) = 0;
  // Waits for all work on the device; returns the error a kernel raised.
  virtual Status Synchronize() = 0;

  virtual Result<EventId> CreateEvent() = 0;
  virtual Status RecordEvent(EventId e) = 0;
  // Waits for `end`, then the milliseconds between the two.
  virtual Result<float> ElapsedMs(EventId start, EventId end) = 0;
  virtual Status DestroyEvent(EventId e) = 0;

  // Peer-to-peer between two devices of this process, by the ordinals of Devices().
  // Whether `device` can map `peer`'s memory directly (NVLink, XGMI, a PCIe path the driver allows).
  virtual Result<bool> CanAccessPeer(int device, int peer) = 0;
  // Lets the open device read and write `peer`'s memory directly; already enabled is not an error.
  virtual Status EnablePeerAccess(int peer) = 0;
  // Copies `bytes` from `src` (memory of `src_device`) to `dst` (memory of `dst_device`): directly where peer
  // access is enabled, staged through the host by the runtime where it is not. Synchronous with the host for
  // most copies, as the runtimes' own peer copies are; the devices' Synchronize waits for the rest.
  virtual Status CopyPeer(DevicePtr dst, int dst_device, DevicePtr src, int src_device, uint64_t bytes) = 0;

  // (optional) Loads the BLAS library on first use; an error when absent or the type is unsupported.
  virtual Status Gemm(const GemmRequest& request) = 0;
};

}  // namespace gpudoctor
