// A Backend driven by a script of answers, for tests with no GPU: device memory is host memory, kernels are
// emulated on the CPU by the functions their owners hand over (fake_kernels.h: the gates' and the
// benchmarks' own), GEMMs are computed naively, and the script can make any operation fail, crash the
// process or hang, so the worker isolation and the gate logic are exercised end to end.
//
// Script (JSON), every key optional:
//   {"runtime":   {"status": "loaded" | "absent", "path": "/fake/libfakegpu.so", "version": "1.0"},
//    "devices":   [{"name": "Fake GPU", "pci_address": "0000:03:00.0", "arch": "sm_90",
//                   "memory_total_bytes": 16777216, "compute_units": 4}],
//    "fail":      {"<operation>": "message"},   // that operation returns an error with this message
//    "crash":     "<operation>",                // that operation raises SIGSEGV
//    "hang":      "<operation>",                // that operation never returns
//    "corrupt":   "<operation>",                // copy_to_host / gemm / launch: flip one value of the output
//    "peer_access": [[0, 1], [1, 0]],           // the device pairs (by index) with direct access; absent:
//    all "telemetry": [{"sm_clock_mhz": 1980, "temperature_c": 60, "power_watts": 300,
//                   "throttle_reasons_mask": 4, "ecc_uncorrected": 0}, ...]}  // cycled per reading
// Operations: load_runtime, devices, open_device, memory_info, allocate, free, copy_to_device, copy_to_host,
// memset, compile, get_function, launch, synchronize, create_event, gemm_fp32, gemm_tf32, gemm_fp16,
// gemm_bf16, telemetry, allocate_pinned, copy_to_device_async, copy_to_host_async, copy_on_device,
// driver_launch, can_access_peer, enable_peer_access, copy_peer. "corrupt" also applies to the three
// asynchronous copies (one byte of the destination) and to "launch" (each kernel's emulation says what it
// corrupts: the triad's output, the dot's sum) and to copy_peer. Memory is counted per device; a peer copy
// checks that each side is memory of the device named. The "telemetry" readings (any TelemetrySample field,
// in telemetry/telemetry_json.h's form) and "fail": {"telemetry": ...} are not the backend's: the workers
// read them into the scripted sampler their gates and benchmarks read (gates/worker_sampler.h).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "gpu/backend.h"
#include "gpu/fake/fake_kernels.h"

namespace gpudoctor {

// 16 MiB: big enough for every gate at reduced sizes, small enough that emulation stays fast.
inline constexpr uint64_t kFakeDefaultMemoryBytes = 16ull << 20;

class FakeBackend final : public Backend {
 public:
  // Fails on malformed JSON or a script that names an unknown operation. `kernels` are the emulations its
  // launches can run; a launch of any other kernel is an error.
  static Result<std::unique_ptr<FakeBackend>> FromScript(const std::string& script_json,
                                                         FakeKernelTable kernels = {});

  BackendKind Kind() const override { return BackendKind::kFake; }
  std::string DisplayName() const override { return "fake"; }
  Status LoadRuntime() override;
  std::vector<BackendLibrary> Libraries() const override { return {runtime_record_}; }
  std::string RuntimeVersion() const override { return "fake runtime " + version_; }

  Result<std::vector<DeviceInfo>> Devices() override;
  Status OpenDevice(int index) override;
  Result<DeviceMemory> MemoryInfo() override;

  Result<DevicePtr> Allocate(uint64_t bytes) override;
  Status Free(DevicePtr p) override;
  Status CopyToDevice(DevicePtr dst, const void* src, uint64_t bytes) override;
  Status CopyToHost(void* dst, DevicePtr src, uint64_t bytes) override;
  Status Memset32(DevicePtr dst, uint32_t value, uint64_t count) override;

  Result<void*> AllocatePinnedHost(uint64_t bytes) override;
  Status FreePinnedHost(void* p) override;
  Status CopyToDeviceAsync(DevicePtr dst, const void* src, uint64_t bytes) override;
  Status CopyToHostAsync(void* dst, DevicePtr src, uint64_t bytes) override;
  Status CopyOnDevice(DevicePtr dst, DevicePtr src, uint64_t bytes) override;

  Result<ModuleId> CompileModule(const std::string& source, const std::string& program_name,
                                 const std::vector<std::string>& defines) override;
  Result<FunctionId> GetFunction(ModuleId module, const std::string& name) override;
  Status Launch(FunctionId fn, Dim3 grid, Dim3 block, const KernelArgs& args) override;
  Result<DriverLaunch> PrepareDriverLaunch(FunctionId fn, Dim3 grid, Dim3 block,
                                           const KernelArgs& args) override;
  Status Synchronize() override;

  Result<EventId> CreateEvent() override;
  Status RecordEvent(EventId e) override;
  Result<float> ElapsedMs(EventId start, EventId end) override;
  Status DestroyEvent(EventId e) override;

  Result<bool> CanAccessPeer(int device, int peer) override;
  Status EnablePeerAccess(int peer) override;
  Status CopyPeer(DevicePtr dst, int dst_device, DevicePtr src, int src_device, uint64_t bytes) override;

  Status Gemm(const GemmRequest& request) override;

  // The bytes behind a device range, for the kernel emulation; nullptr when the range is not allocated.
  uint8_t* HostView(DevicePtr p, uint64_t bytes);

 private:
  FakeBackend() = default;
  // Applies the script to `op`: returns its scripted error, or crashes / hangs as scripted.
  Status Scripted(const std::string& op);
  bool Corrupts(const std::string& op) const { return corrupt_ == op; }
  Status EmulateKernel(const std::string& name, Dim3 grid, const KernelArgs& args);
  // The device whose allocation holds [p, p + bytes), or nullopt.
  std::optional<int> DeviceOf(DevicePtr p, uint64_t bytes);

  BackendLibrary runtime_record_{"runtime", "fakegpu", LoadStatus::kNotTried, "", "system", "fake script",
                                 "",        ""};
  LoadStatus runtime_status_ = LoadStatus::kLoaded;
  std::string version_ = "1.0";
  std::vector<DeviceInfo> devices_;
  std::map<std::string, std::string> fail_;
  std::string crash_, hang_, corrupt_;
  std::optional<std::set<std::pair<int, int>>> peer_access_;  // nullopt: every pair
  FakeKernelTable kernels_;

  bool loaded_ = false;
  std::optional<int> device_;
  bool plant_wrong_ = false;            // the module was compiled with GD_PLANT_WRONG
  std::map<int, uint64_t> used_bytes_;  // by device
  uint64_t next_address_ = 0x7f0000000000ull;
  uint64_t next_id_ = 1;
  std::map<DevicePtr, std::vector<uint8_t>> blocks_;
  std::map<DevicePtr, int> block_device_;
  std::map<void*, std::unique_ptr<uint8_t[]>> pinned_;
  std::map<FunctionId, std::string> functions_;
  std::map<EventId, std::chrono::steady_clock::time_point> events_;
};

}  // namespace gpudoctor
