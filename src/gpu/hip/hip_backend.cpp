// HipBackend's runtime half: loading libamdhip64, devices, memory, hiprtc compilation, modules, launches
// and events. GEMM lives in hip_blas.cpp.
#include "gpu/hip/hip_backend.h"

#include <cstring>

#include "core/strings.h"

namespace gpudoctor {
namespace {

void* AsPtr(DevicePtr p) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(p));
}

}  // namespace

HipBackend::~HipBackend() {
  if (rocblas_handle_ && rocblas_ && rocblas_->api.DestroyHandle)
    rocblas_->api.DestroyHandle(rocblas_handle_);
  const HipApi& h = hip_.api;
  for (auto& [id, ev] : events_)
    if (h.EventDestroy) h.EventDestroy(ev);
  for (auto& [id, mod] : modules_)
    if (h.ModuleUnload) h.ModuleUnload(mod);
}

Status HipBackend::Check(hipError_t rc, const std::string& call) const {
  if (rc == kHipSuccess) return Ok{};
  std::string text = call + " failed: " + HipErrorText(hip_.api, rc);
  if (rc == kHipErrorOutOfMemory)
    return EnvError(text, "the GPU is out of memory (other processes may hold it)");
  return EnvError(text);
}

Status HipBackend::RequireDevice() const {
  if (!device_) return InternalError("no HIP device open (OpenDevice first)");
  return Ok{};
}

Status HipBackend::LoadRuntime() {
  if (initialized_) return Ok{};
  hip_ = LoadSearched<HipApi>(
      in_, HipLibrarySpec(), [](const std::vector<std::string>& c) { return LoadHip(c); }, hip_record_);
  if (hip_.status == LoadStatus::kAbsent)
    return EnvError("the HIP runtime (libamdhip64 / amdhip64_N.dll) was not found",
                    "install ROCm's HIP runtime (or a PyTorch ROCm wheel, which carries one)");
  if (hip_.status == LoadStatus::kBroken)
    return EnvError("the HIP runtime at " + hip_.load.loaded_path + " lacks " + hip_.symbols.Summary());
  int rv = 0;
  if (hip_.api.RuntimeGetVersion(&rv) == kHipSuccess) {
    // HIP_VERSION = major * 10000000 + minor * 100000 + patch.
    std::string text = std::to_string(rv / 10000000) + "." + std::to_string((rv / 100000) % 100) + "." +
                       std::to_string(rv % 100000);
    hip_record_.version = text;
    version_ = "HIP runtime " + text;
  }
  // hipInit succeeds with no GPU on some releases and reports hipErrorNoDevice on others: either way the
  // runtime itself loaded, and Devices() says what it sees.
  // HIP 5.2 answers hipErrorInvalidDevice (101) when there is no GPU at all.
  hipError_t rc = hip_.api.Init(0);
  if (rc == kHipErrorNoDevice || rc == kHipErrorInvalidDevice) {
    no_device_ = true;
    hip_record_.detail = "hipInit: " + HipErrorText(hip_.api, rc);
  } else if (rc != kHipSuccess) {
    return Check(rc, "hipInit");
  }
  initialized_ = true;
  return Ok{};
}

std::vector<BackendLibrary> HipBackend::Libraries() const {
  return {hip_record_, hiprtc_record_, rocblas_record_};
}

std::string HipBackend::ArchOf(int index, const std::string& pci) const {
  if (auto it = in_.arch_by_pci.find(pci); it != in_.arch_by_pci.end()) return it->second;
  // HIP 5.x only: its hipDeviceProp_t layout is known (hip_api.h); HIP 6+ has R0600 with another layout.
  if (hip_.api.GetDeviceProperties && !hip_.api.GetDevicePropertiesR0600) {
    std::vector<char> props(kHip5DevicePropSize + 1024, 0);  // slack in case the struct grew
    if (hip_.api.GetDeviceProperties(props.data(), index) == kHipSuccess) {
      const char* name = props.data() + kHip5GcnArchNameOffset;
      return std::string(name, strnlen(name, kHipGcnArchNameSize));
    }
  }
  return {};
}

Result<std::vector<DeviceInfo>> HipBackend::Devices() {
  if (!initialized_) return InternalError("HIP runtime not loaded");
  if (no_device_) return std::vector<DeviceInfo>{};
  const HipApi& h = hip_.api;
  int count = 0;
  hipError_t rc = h.GetDeviceCount(&count);
  if (rc == kHipErrorNoDevice) return std::vector<DeviceInfo>{};
  if (auto s = Check(rc, "hipGetDeviceCount"); !s) return s.error();
  std::vector<DeviceInfo> out;
  for (int i = 0; i < count; ++i) {
    DeviceInfo info;
    info.index = i;
    char name[256] = {};
    if (auto s = Check(h.DeviceGetName(name, sizeof name, i), "hipDeviceGetName"); !s) return s.error();
    info.name = name;
    char bus[64] = {};
    if (auto s = Check(h.DeviceGetPCIBusId(bus, sizeof bus, i), "hipDeviceGetPCIBusId"); !s) return s.error();
    info.pci_address = ToLower(bus);
    size_t total = 0;
    if (auto s = Check(h.DeviceTotalMem(&total, i), "hipDeviceTotalMem"); !s) return s.error();
    info.memory_total_bytes = total;
    int cus = 0;
    if (h.DeviceGetAttribute(&cus, kHipAttrMultiprocessorCount, i) == kHipSuccess && cus > 0)
      info.compute_units = static_cast<uint32_t>(cus);
    info.arch = ArchOf(i, info.pci_address);
    out.push_back(std::move(info));
  }
  return out;
}

Status HipBackend::OpenDevice(int index) {
  // The devices are read once: a worker that switches between GPUs (the P2P matrix) opens them again and
  // again, inside timed loops.
  if (!opened_devices_) {
    auto listed = Devices();
    if (!listed) return listed.error();
    opened_devices_ = std::move(*listed);
  }
  const std::vector<DeviceInfo>* devices = &*opened_devices_;
  if (index < 0 || index >= static_cast<int>(devices->size()))
    return UserError("no HIP device " + std::to_string(index) + " (the runtime sees " +
                     std::to_string(devices->size()) + ")");
  // Another device keeps what was made on the first (HIP memory belongs to its device, not to the current
  // one), but not the rocBLAS handle, which is the first's and made again on first use.
  if (device_ && *device_ != index) {
    if (rocblas_handle_ && rocblas_ && rocblas_->api.DestroyHandle)
      rocblas_->api.DestroyHandle(rocblas_handle_);
    rocblas_handle_ = nullptr;
  }
  if (auto s = Check(hip_.api.SetDevice(index), "hipSetDevice"); !s) return s;
  device_ = index;
  device_arch_ = (*devices)[static_cast<size_t>(index)].arch;
  device_pci_ = (*devices)[static_cast<size_t>(index)].pci_address;
  return Ok{};
}

Result<DeviceMemory> HipBackend::MemoryInfo() {
  if (auto s = RequireDevice(); !s) return s.error();
  size_t free_b = 0, total_b = 0;
  if (auto s = Check(hip_.api.MemGetInfo(&free_b, &total_b), "hipMemGetInfo"); !s) return s.error();
  return DeviceMemory{free_b, total_b};
}

Result<DevicePtr> HipBackend::Allocate(uint64_t bytes) {
  if (auto s = RequireDevice(); !s) return s.error();
  void* p = nullptr;
  if (auto s = Check(hip_.api.Malloc(&p, bytes), "hipMalloc(" + FormatBytes(bytes) + ")"); !s)
    return s.error();
  return static_cast<DevicePtr>(reinterpret_cast<uintptr_t>(p));
}

Status HipBackend::Free(DevicePtr p) {
  return Check(hip_.api.Free(AsPtr(p)), "hipFree");
}

Status HipBackend::CopyToDevice(DevicePtr dst, const void* src, uint64_t bytes) {
  return Check(hip_.api.Memcpy(AsPtr(dst), src, bytes, kHipMemcpyHostToDevice), "hipMemcpy(host to device)");
}

Status HipBackend::CopyToHost(void* dst, DevicePtr src, uint64_t bytes) {
  return Check(hip_.api.Memcpy(dst, AsPtr(src), bytes, kHipMemcpyDeviceToHost), "hipMemcpy(device to host)");
}

Status HipBackend::Memset32(DevicePtr dst, uint32_t value, uint64_t count) {
  return Check(hip_.api.MemsetD32(AsPtr(dst), static_cast<int>(value), count), "hipMemsetD32");
}

Result<std::vector<char>> HipBackend::CompileWithHiprtc(const std::string& source,
                                                        const std::string& program_name,
                                                        const std::vector<std::string>& defines) {
  if (!hiprtc_) {
    hiprtc_ = LoadSearched<HiprtcApi>(
        in_, HiprtcLibrarySpec(), [](const std::vector<std::string>& c) { return LoadHiprtc(c); },
        hiprtc_record_);
    if (hiprtc_->status != LoadStatus::kLoaded && !hip_.load.loaded_path.empty()) {
      // ROCm 5.2 and older: hiprtc's exports live in libamdhip64 itself.
      auto inside = LoadHiprtc({hip_.load.loaded_path});
      if (inside.status == LoadStatus::kLoaded) {
        hiprtc_ = std::move(inside);
        hiprtc_record_ = {"compiler",          "hiprtc",
                          LoadStatus::kLoaded, hip_.load.loaded_path,
                          hip_record_.origin,  "inside the HIP runtime (ROCm 5.2 and older)",
                          hip_record_.version, ""};
      }
    }
  }
  if (hiprtc_->status != LoadStatus::kLoaded)
    return EnvError(
        "hiprtc is " + std::string(LoadStatusName(hiprtc_record_.status)) + ": " + hiprtc_record_.detail,
        "install ROCm's hiprtc (package hiprtc / rocm-hip-runtime)");
  if (device_arch_.empty())
    return EnvError("the GPU's architecture (gfx target) is unknown, so hiprtc has nothing to compile for",
                    "check that the KFD topology is readable (/sys/class/kfd)");
  const HiprtcApi& r = hiprtc_->api;
  std::vector<std::string> options = {"--gpu-architecture=" + device_arch_, "-O3"};
  for (const auto& d : defines) options.push_back("-D" + d);
  std::vector<const char*> opt_ptrs;
  for (const auto& o : options) opt_ptrs.push_back(o.c_str());
  hiprtcProgram prog = nullptr;
  hiprtcResult rc = r.CreateProgram(&prog, source.c_str(), program_name.c_str(), 0, nullptr, nullptr);
  if (rc != kHiprtcSuccess) return EnvError("hiprtcCreateProgram failed: " + HiprtcErrorText(r, rc));
  rc = r.CompileProgram(prog, static_cast<int>(opt_ptrs.size()), opt_ptrs.data());
  std::string log;
  size_t log_size = 0;
  if (r.GetProgramLogSize(prog, &log_size) == kHiprtcSuccess && log_size > 1) {
    log.resize(log_size);
    r.GetProgramLog(prog, log.data());
    log.resize(strnlen(log.data(), log_size));
  }
  std::vector<char> code;
  if (rc == kHiprtcSuccess) {
    size_t size = 0;
    rc = r.GetCodeSize(prog, &size);
    if (rc == kHiprtcSuccess) {
      code.resize(size);
      rc = r.GetCode(prog, code.data());
    }
  }
  r.DestroyProgram(&prog);
  if (rc != kHiprtcSuccess)
    return EnvError("hiprtc could not compile " + program_name + " for " + device_arch_ + ": " +
                    HiprtcErrorText(r, rc) + (log.empty() ? "" : "\n" + log));
  return code;
}

Result<ModuleId> HipBackend::CompileModule(const std::string& source, const std::string& program_name,
                                           const std::vector<std::string>& defines) {
  if (auto s = RequireDevice(); !s) return s.error();
  auto code = CompileWithHiprtc(source, program_name, defines);
  if (!code) return code.error();
  hipModule_t mod = nullptr;
  if (auto s = Check(hip_.api.ModuleLoadData(&mod, code->data()), "hipModuleLoadData"); !s) return s.error();
  ModuleId id = next_id_++;
  modules_[id] = mod;
  return id;
}

Result<FunctionId> HipBackend::GetFunction(ModuleId module, const std::string& name) {
  auto it = modules_.find(module);
  if (it == modules_.end()) return InternalError("unknown module id");
  hipFunction_t fn = nullptr;
  if (auto s = Check(hip_.api.ModuleGetFunction(&fn, it->second, name.c_str()),
                     "hipModuleGetFunction(" + name + ")");
      !s)
    return s.error();
  FunctionId id = next_id_++;
  functions_[id] = fn;
  return id;
}

Status HipBackend::Launch(FunctionId fn, Dim3 grid, Dim3 block, const KernelArgs& args) {
  auto it = functions_.find(fn);
  if (it == functions_.end()) return InternalError("unknown function id");
  // The launch path allocates nothing for the usual few arguments (the latency benchmark times it).
  void* fixed[16];
  std::vector<void*> more;
  void** params = fixed;
  if (!args.PointersInto(fixed, 16)) {
    more = args.Pointers();
    params = more.data();
  }
  return Check(hip_.api.ModuleLaunchKernel(it->second, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0,
                                           nullptr, params, nullptr),
               "hipModuleLaunchKernel");
}

Status HipBackend::Synchronize() {
  return Check(hip_.api.DeviceSynchronize(), "hipDeviceSynchronize");
}

Result<EventId> HipBackend::CreateEvent() {
  hipEvent_t ev = nullptr;
  if (auto s = Check(hip_.api.EventCreate(&ev), "hipEventCreate"); !s) return s.error();
  EventId id = next_id_++;
  events_[id] = ev;
  return id;
}

Status HipBackend::RecordEvent(EventId e) {
  auto it = events_.find(e);
  if (it == events_.end()) return InternalError("unknown event id");
  return Check(hip_.api.EventRecord(it->second, nullptr), "hipEventRecord");
}

Result<float> HipBackend::ElapsedMs(EventId start, EventId end) {
  auto a = events_.find(start), b = events_.find(end);
  if (a == events_.end() || b == events_.end()) return InternalError("unknown event id");
  if (auto s = Check(hip_.api.EventSynchronize(b->second), "hipEventSynchronize"); !s) return s.error();
  float ms = 0;
  if (auto s = Check(hip_.api.EventElapsedTime(&ms, a->second, b->second), "hipEventElapsedTime"); !s)
    return s.error();
  return ms;
}

Status HipBackend::DestroyEvent(EventId e) {
  auto it = events_.find(e);
  if (it == events_.end()) return InternalError("unknown event id");
  hipEvent_t ev = it->second;
  events_.erase(it);
  return Check(hip_.api.EventDestroy(ev), "hipEventDestroy");
}

}  // namespace gpudoctor
