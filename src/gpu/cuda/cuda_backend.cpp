// CudaBackend's runtime half: loading libcuda, devices, the primary context, memory, NVRTC compilation,
// modules, launches and events. GEMM lives in cuda_blas.cpp.
#include "gpu/cuda/cuda_backend.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

std::string VersionText(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string LowerPci(std::string s) {
  return ToLower(s);
}

}  // namespace

CudaBackend::~CudaBackend() {
  if (cublas_handle_ && cublas_ && cublas_->api.Destroy) cublas_->api.Destroy(cublas_handle_);
  const CudaDriverApi& d = driver_.api;
  for (auto& [id, ev] : events_)
    if (d.EventDestroy) d.EventDestroy(ev);
  for (auto& [id, mod] : modules_)
    if (d.ModuleUnload) d.ModuleUnload(mod);
  if (d.DevicePrimaryCtxRelease)
    for (auto& [dev, ctx] : primary_contexts_) d.DevicePrimaryCtxRelease(dev);
}

Status CudaBackend::Check(CUresult rc, const char* call) const {
  if (rc == kCudaSuccess) return Ok{};
  std::string text = std::string(call) + " failed: " + CudaErrorText(driver_.api, rc);
  if (rc == kCudaErrorOutOfMemory)
    return EnvError(text, "the GPU is out of memory (other processes may hold it)");
  return EnvError(text);
}

Status CudaBackend::RequireDevice() const {
  if (!device_) return InternalError("no CUDA device open (OpenDevice first)");
  return Ok{};
}

Status CudaBackend::LoadRuntime() {
  if (initialized_) return Ok{};
  driver_ = LoadSearched<CudaDriverApi>(
      in_, CudaDriverLibrarySpec(), [](const std::vector<std::string>& c) { return LoadCudaDriver(c); },
      driver_record_);
  if (driver_.status == LoadStatus::kAbsent)
    return EnvError("the NVIDIA driver's CUDA library (libcuda.so.1 / nvcuda.dll) was not found",
                    "install the NVIDIA driver for this GPU (it ships libcuda)");
  if (driver_.status == LoadStatus::kBroken)
    return EnvError("libcuda at " + driver_.load.loaded_path + " lacks " + driver_.symbols.Summary(),
                    "reinstall the NVIDIA driver");
  auto missing = CudaBackendSymbolsMissing(driver_.api);
  if (!missing.empty()) {
    std::string names;
    for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
    driver_record_.status = LoadStatus::kBroken;
    driver_record_.detail = "missing " + names;
    return EnvError("libcuda at " + driver_.load.loaded_path + " lacks " + names,
                    "the driver is too old for gpudoctor's GPU checks; update the NVIDIA driver");
  }
  if (auto s = Check(driver_.api.Init(0), "cuInit"); !s) return s;
  int v = 0;
  if (driver_.api.DriverGetVersion(&v) == kCudaSuccess) {
    version_ = "CUDA driver API " + VersionText(v);
    driver_record_.version = VersionText(v);
  }
  initialized_ = true;
  return Ok{};
}

std::vector<BackendLibrary> CudaBackend::Libraries() const {
  return {driver_record_, nvrtc_record_, cublas_record_};
}

Result<std::vector<DeviceInfo>> CudaBackend::Devices() {
  if (!initialized_) return InternalError("CUDA runtime not loaded");
  const CudaDriverApi& d = driver_.api;
  int count = 0;
  if (auto s = Check(d.DeviceGetCount(&count), "cuDeviceGetCount"); !s) return s.error();
  std::vector<DeviceInfo> out;
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (auto s = Check(d.DeviceGet(&dev, i), "cuDeviceGet"); !s) return s.error();
    DeviceInfo info;
    info.index = i;
    char name[256] = {};
    if (auto s = Check(d.DeviceGetName(name, sizeof name, dev), "cuDeviceGetName"); !s) return s.error();
    info.name = name;
    char bus[64] = {};
    if (auto s = Check(d.DeviceGetPCIBusId(bus, sizeof bus, dev), "cuDeviceGetPCIBusId"); !s)
      return s.error();
    info.pci_address = LowerPci(bus);
    int major = 0, minor = 0, sms = 0;
    d.DeviceGetAttribute(&major, kCuAttrComputeCapabilityMajor, dev);
    d.DeviceGetAttribute(&minor, kCuAttrComputeCapabilityMinor, dev);
    info.arch = "sm_" + std::to_string(major) + std::to_string(minor);
    if (d.DeviceGetAttribute(&sms, kCuAttrMultiprocessorCount, dev) == kCudaSuccess && sms > 0)
      info.compute_units = static_cast<uint32_t>(sms);
    size_t total = 0;
    if (auto s = Check(d.DeviceTotalMem(&total, dev), "cuDeviceTotalMem_v2"); !s) return s.error();
    info.memory_total_bytes = total;
    out.push_back(std::move(info));
  }
  return out;
}

Status CudaBackend::OpenDevice(int index) {
  // The devices are read once: a worker that switches between GPUs (the P2P matrix) opens them again and
  // again, inside timed loops.
  if (!opened_devices_) {
    auto listed = Devices();
    if (!listed) return listed.error();
    opened_devices_ = std::move(*listed);
  }
  const std::vector<DeviceInfo>* devices = &*opened_devices_;
  if (index < 0 || index >= static_cast<int>(devices->size()))
    return UserError("no CUDA device " + std::to_string(index) + " (the runtime sees " +
                     std::to_string(devices->size()) + ")");
  CUdevice dev = 0;
  if (auto s = Check(driver_.api.DeviceGet(&dev, index), "cuDeviceGet"); !s) return s;
  // Gates run one after another in one worker: the second open of the same device keeps its context.
  // Another device keeps the first's context too (its memory stays valid), but not its cuBLAS handle, which
  // belongs to the first and is made again on first use.
  auto ctx = ContextOf(index);
  if (!ctx) return ctx.error();
  if (device_ && *device_ != dev) {
    if (cublas_handle_ && cublas_ && cublas_->api.Destroy) cublas_->api.Destroy(cublas_handle_);
    cublas_handle_ = nullptr;
  }
  context_ = *ctx;
  device_ = dev;
  if (auto s = Check(driver_.api.CtxSetCurrent(context_), "cuCtxSetCurrent"); !s) return s;
  device_arch_ = (*devices)[static_cast<size_t>(index)].arch;
  device_pci_ = (*devices)[static_cast<size_t>(index)].pci_address;
  return Ok{};
}

Result<DeviceMemory> CudaBackend::MemoryInfo() {
  if (auto s = RequireDevice(); !s) return s.error();
  size_t free_b = 0, total_b = 0;
  if (auto s = Check(driver_.api.MemGetInfo(&free_b, &total_b), "cuMemGetInfo_v2"); !s) return s.error();
  return DeviceMemory{free_b, total_b};
}

Result<DevicePtr> CudaBackend::Allocate(uint64_t bytes) {
  if (auto s = RequireDevice(); !s) return s.error();
  CUdeviceptr p = 0;
  std::string call = "cuMemAlloc_v2(" + FormatBytes(bytes) + ")";
  if (auto s = Check(driver_.api.MemAlloc(&p, bytes), call.c_str()); !s) return s.error();
  return DevicePtr{p};
}

Status CudaBackend::Free(DevicePtr p) {
  return Check(driver_.api.MemFree(p), "cuMemFree_v2");
}

Status CudaBackend::CopyToDevice(DevicePtr dst, const void* src, uint64_t bytes) {
  return Check(driver_.api.MemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD_v2");
}

Status CudaBackend::CopyToHost(void* dst, DevicePtr src, uint64_t bytes) {
  return Check(driver_.api.MemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH_v2");
}

Status CudaBackend::Memset32(DevicePtr dst, uint32_t value, uint64_t count) {
  return Check(driver_.api.MemsetD32(dst, value, count), "cuMemsetD32_v2");
}

Result<std::vector<char>> CudaBackend::CompileWithNvrtc(const std::string& source,
                                                        const std::string& program_name,
                                                        const std::vector<std::string>& defines) {
  if (!nvrtc_) {
    nvrtc_ = LoadSearched<NvrtcApi>(
        in_, NvrtcLibrarySpec(), [](const std::vector<std::string>& c) { return LoadNvrtc(c); },
        nvrtc_record_);
    if (nvrtc_->status == LoadStatus::kLoaded) {
      int major = 0, minor = 0;
      if (nvrtc_->api.Version(&major, &minor) == kNvrtcSuccess)
        nvrtc_record_.version = std::to_string(major) + "." + std::to_string(minor);
    }
  }
  if (nvrtc_->status != LoadStatus::kLoaded)
    return EnvError(
        "NVRTC (libnvrtc) is " + std::string(LoadStatusName(nvrtc_record_.status)) + ": " +
            nvrtc_record_.detail,
        "install the CUDA toolkit's NVRTC (pip install nvidia-cuda-nvrtc, or the toolkit package)");
  const NvrtcApi& n = nvrtc_->api;
  // Machine code for the device's own architecture when this NVRTC can emit it; PTX for the driver to
  // compile otherwise.
  bool cubin = n.GetCUBIN && n.GetCUBINSize;
  std::string arch = device_arch_;
  std::string target = cubin ? "--gpu-architecture=" + arch : "--gpu-architecture=compute_" + arch.substr(3);
  std::vector<std::string> options = {target, "-default-device"};
  for (const auto& d : defines) options.push_back("-D" + d);
  std::vector<const char*> opt_ptrs;
  for (const auto& o : options) opt_ptrs.push_back(o.c_str());

  nvrtcProgram prog = nullptr;
  nvrtcResult rc = n.CreateProgram(&prog, source.c_str(), program_name.c_str(), 0, nullptr, nullptr);
  if (rc != kNvrtcSuccess) return EnvError("nvrtcCreateProgram failed: " + NvrtcErrorText(n, rc));
  rc = n.CompileProgram(prog, static_cast<int>(opt_ptrs.size()), opt_ptrs.data());
  std::string log;
  size_t log_size = 0;
  if (n.GetProgramLogSize(prog, &log_size) == kNvrtcSuccess && log_size > 1) {
    log.resize(log_size);
    n.GetProgramLog(prog, log.data());
    log.resize(log_size - 1);
  }
  std::vector<char> code;
  if (rc == kNvrtcSuccess) {
    size_t size = 0;
    nvrtcResult grc = cubin ? n.GetCUBINSize(prog, &size) : n.GetPTXSize(prog, &size);
    if (grc == kNvrtcSuccess) {
      code.resize(size);
      grc = cubin ? n.GetCUBIN(prog, code.data()) : n.GetPTX(prog, code.data());
    }
    if (grc != kNvrtcSuccess) rc = grc;
  }
  n.DestroyProgram(&prog);
  if (rc != kNvrtcSuccess)
    return EnvError("NVRTC could not compile " + program_name + " for " + arch + ": " +
                    NvrtcErrorText(n, rc) + (log.empty() ? "" : "\n" + log));
  return code;
}

Result<ModuleId> CudaBackend::CompileModule(const std::string& source, const std::string& program_name,
                                            const std::vector<std::string>& defines) {
  if (auto s = RequireDevice(); !s) return s.error();
  auto code = CompileWithNvrtc(source, program_name, defines);
  if (!code) return code.error();
  CUmodule mod = nullptr;
  if (auto s = Check(driver_.api.ModuleLoadData(&mod, code->data()), "cuModuleLoadData"); !s)
    return s.error();
  ModuleId id = next_id_++;
  modules_[id] = mod;
  return id;
}

Result<FunctionId> CudaBackend::GetFunction(ModuleId module, const std::string& name) {
  auto it = modules_.find(module);
  if (it == modules_.end()) return InternalError("unknown module id");
  CUfunction fn = nullptr;
  std::string call = "cuModuleGetFunction(" + name + ")";
  if (auto s = Check(driver_.api.ModuleGetFunction(&fn, it->second, name.c_str()), call.c_str()); !s)
    return s.error();
  FunctionId id = next_id_++;
  functions_[id] = fn;
  return id;
}

Status CudaBackend::Launch(FunctionId fn, Dim3 grid, Dim3 block, const KernelArgs& args) {
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
  return Check(driver_.api.LaunchKernel(it->second, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0,
                                        nullptr, params, nullptr),
               "cuLaunchKernel");
}

Status CudaBackend::Synchronize() {
  return Check(driver_.api.CtxSynchronize(), "cuCtxSynchronize");
}

Result<EventId> CudaBackend::CreateEvent() {
  CUevent ev = nullptr;
  if (auto s = Check(driver_.api.EventCreate(&ev, 0), "cuEventCreate"); !s) return s.error();
  EventId id = next_id_++;
  events_[id] = ev;
  return id;
}

Status CudaBackend::RecordEvent(EventId e) {
  auto it = events_.find(e);
  if (it == events_.end()) return InternalError("unknown event id");
  return Check(driver_.api.EventRecord(it->second, nullptr), "cuEventRecord");
}

Result<float> CudaBackend::ElapsedMs(EventId start, EventId end) {
  auto a = events_.find(start), b = events_.find(end);
  if (a == events_.end() || b == events_.end()) return InternalError("unknown event id");
  if (auto s = Check(driver_.api.EventSynchronize(b->second), "cuEventSynchronize"); !s) return s.error();
  float ms = 0;
  if (auto s = Check(driver_.api.EventElapsedTime(&ms, a->second, b->second), "cuEventElapsedTime"); !s)
    return s.error();
  return ms;
}

Status CudaBackend::DestroyEvent(EventId e) {
  auto it = events_.find(e);
  if (it == events_.end()) return InternalError("unknown event id");
  CUevent ev = it->second;
  events_.erase(it);
  return Check(driver_.api.EventDestroy(ev), "cuEventDestroy_v2");
}

}  // namespace gpudoctor
