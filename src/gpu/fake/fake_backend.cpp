// The scripted fake backend's runtime half: parsing the script, faults on demand, memory as host buffers,
// events on the host clock. Kernel and GEMM emulation live in fake_compute.cpp.
#include "gpu/fake/fake_backend.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "core/json_depth.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

// A script's device without a "pci_address": a distinct one per device (0000:03:00.0, 0000:04:00.0, ...),
// so the mapping of a PCI address to the ordinal is exercised on several fake GPUs too.
std::string FakePciAddress(int index) {
  char text[16];
  std::snprintf(text, sizeof text, "0000:%02x:00.0", static_cast<unsigned>(3 + index) & 0xffu);
  return text;
}

const std::set<std::string>& KnownOperations() {
  static const std::set<std::string> kOps = {"load_runtime",
                                             "devices",
                                             "open_device",
                                             "memory_info",
                                             "allocate",
                                             "free",
                                             "copy_to_device",
                                             "copy_to_host",
                                             "memset",
                                             "compile",
                                             "get_function",
                                             "launch",
                                             "synchronize",
                                             "create_event",
                                             "gemm_fp32",
                                             "gemm_tf32",
                                             "gemm_fp16",
                                             "gemm_bf16",
                                             "telemetry",
                                             "allocate_pinned",
                                             "copy_to_device_async",
                                             "copy_to_host_async",
                                             "copy_on_device",
                                             "driver_launch",
                                             "can_access_peer",
                                             "enable_peer_access",
                                             "copy_peer"};
  return kOps;
}

template <typename T>
std::optional<T> Opt(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<T>();
}

}  // namespace

Result<std::unique_ptr<FakeBackend>> FakeBackend::FromScript(const std::string& script_json,
                                                             FakeKernelTable kernels) {
  auto j = ParseJsonWithinDepth<nlohmann::json>(script_json.empty() ? std::string("{}") : script_json);
  if (j.is_discarded() || !j.is_object()) return UserError("the fake backend's script is not a JSON object");
  std::unique_ptr<FakeBackend> b(new FakeBackend());
  b->kernels_ = std::move(kernels);
  try {
    if (j.contains("runtime")) {
      const auto& r = j["runtime"];
      const std::string status = r.value("status", "loaded");
      const auto parsed = LoadStatusFromName(status);
      if (!parsed)
        return UserError("the fake backend's script: runtime.status \"" + status + "\" is not " +
                         std::string(LoadStatusNames()));
      b->runtime_status_ = *parsed;
      b->runtime_record_.path = r.value("path", "/fake/libfakegpu.so");
      b->version_ = r.value("version", "1.0");
    } else {
      b->runtime_record_.path = "/fake/libfakegpu.so";
    }
    if (j.contains("devices")) {
      int index = 0;
      for (const auto& d : j["devices"]) {
        DeviceInfo info;
        info.index = index++;
        info.name = d.value("name", "Fake GPU");
        info.pci_address = d.value("pci_address", FakePciAddress(info.index));
        info.arch = d.value("arch", "sm_90");
        info.memory_total_bytes = d.value("memory_total_bytes", kFakeDefaultMemoryBytes);
        info.compute_units = Opt<uint32_t>(d, "compute_units");
        b->devices_.push_back(info);
      }
    } else {
      b->devices_.push_back({{0, "Fake GPU", "0000:03:00.0"}, "sm_90", kFakeDefaultMemoryBytes, 4u});
    }
    if (j.contains("peer_access")) b->peer_access_ = j["peer_access"].get<std::set<std::pair<int, int>>>();
    if (j.contains("fail")) b->fail_ = j["fail"].get<std::map<std::string, std::string>>();
    b->crash_ = j.value("crash", "");
    b->hang_ = j.value("hang", "");
    b->corrupt_ = j.value("corrupt", "");
  } catch (const nlohmann::json::exception& e) {
    return UserError(std::string("the fake backend's script is malformed: ") + e.what());
  }
  std::vector<std::string> named;
  for (const auto& [op, msg] : b->fail_) named.push_back(op);
  for (const std::string* op : {&b->crash_, &b->hang_, &b->corrupt_})
    if (!op->empty()) named.push_back(*op);
  for (const auto& op : named)
    if (!KnownOperations().count(op))
      return UserError("the fake backend's script names an unknown operation: " + op);
  return b;
}

Status FakeBackend::Scripted(const std::string& op) {
  if (op == crash_) std::raise(SIGSEGV);
  if (op == hang_) {
    while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (auto it = fail_.find(op); it != fail_.end()) return EnvError(op + " failed: " + it->second);
  return Ok{};
}

Status FakeBackend::LoadRuntime() {
  if (auto s = Scripted("load_runtime"); !s) {
    runtime_record_.status = LoadStatus::kBroken;
    runtime_record_.detail = s.error().message;
    return s;
  }
  if (runtime_status_ != LoadStatus::kLoaded) {
    runtime_record_.status = runtime_status_;
    runtime_record_.path.clear();
    return EnvError("the fake runtime is " + std::string(LoadStatusName(runtime_status_)),
                    "edit the fake script");
  }
  runtime_record_.status = LoadStatus::kLoaded;
  runtime_record_.version = version_;
  loaded_ = true;
  return Ok{};
}

Result<std::vector<DeviceInfo>> FakeBackend::Devices() {
  if (!loaded_) return InternalError("fake runtime not loaded");
  if (auto s = Scripted("devices"); !s) return s.error();
  return devices_;
}

Status FakeBackend::OpenDevice(int index) {
  if (auto s = Scripted("open_device"); !s) return s;
  if (index < 0 || index >= static_cast<int>(devices_.size()))
    return UserError("no fake device " + std::to_string(index));
  device_ = index;
  return Ok{};
}

Result<DeviceMemory> FakeBackend::MemoryInfo() {
  if (!device_) return InternalError("no fake device open");
  if (auto s = Scripted("memory_info"); !s) return s.error();
  uint64_t total = devices_[static_cast<size_t>(*device_)].memory_total_bytes;
  uint64_t used = used_bytes_[*device_];
  return DeviceMemory{total > used ? total - used : 0, total};
}

Result<DevicePtr> FakeBackend::Allocate(uint64_t bytes) {
  if (!device_) return InternalError("no fake device open");
  if (auto s = Scripted("allocate"); !s) return s.error();
  uint64_t total = devices_[static_cast<size_t>(*device_)].memory_total_bytes;
  uint64_t& used = used_bytes_[*device_];
  if (bytes == 0 || used + bytes > total)
    return EnvError("fakeMalloc(" + FormatBytes(bytes) + ") failed: out of memory (" +
                        FormatBytes(total - used) + " free)",
                    "the GPU is out of memory (other processes may hold it)");
  DevicePtr p = next_address_;
  next_address_ += (bytes + 255) / 256 * 256 + 256;
  blocks_[p].assign(bytes, 0xA5);  // never zeros: unwritten outputs must not look right
  block_device_[p] = *device_;
  used += bytes;
  return p;
}

Status FakeBackend::Free(DevicePtr p) {
  if (auto s = Scripted("free"); !s) return s;
  auto it = blocks_.find(p);
  if (it == blocks_.end()) return EnvError("fakeFree: not an allocation");
  used_bytes_[block_device_[p]] -= it->second.size();
  block_device_.erase(p);
  blocks_.erase(it);
  return Ok{};
}

uint8_t* FakeBackend::HostView(DevicePtr p, uint64_t bytes) {
  auto it = blocks_.upper_bound(p);
  if (it == blocks_.begin()) return nullptr;
  --it;
  uint64_t offset = p - it->first;
  if (offset + bytes > it->second.size()) return nullptr;
  return it->second.data() + offset;
}

Status FakeBackend::CopyToDevice(DevicePtr dst, const void* src, uint64_t bytes) {
  if (auto s = Scripted("copy_to_device"); !s) return s;
  uint8_t* to = HostView(dst, bytes);
  if (!to) return EnvError("fakeMemcpy(host to device): invalid device range");
  std::memcpy(to, src, bytes);
  return Ok{};
}

Status FakeBackend::CopyToHost(void* dst, DevicePtr src, uint64_t bytes) {
  if (auto s = Scripted("copy_to_host"); !s) return s;
  uint8_t* from = HostView(src, bytes);
  if (!from) return EnvError("fakeMemcpy(device to host): invalid device range");
  std::memcpy(dst, from, bytes);
  if (Corrupts("copy_to_host") && bytes > 0) static_cast<uint8_t*>(dst)[bytes / 2] ^= 0x10;
  return Ok{};
}

Status FakeBackend::Memset32(DevicePtr dst, uint32_t value, uint64_t count) {
  if (auto s = Scripted("memset"); !s) return s;
  uint8_t* to = HostView(dst, count * 4);
  if (!to) return EnvError("fakeMemsetD32: invalid device range");
  for (uint64_t i = 0; i < count; ++i) std::memcpy(to + i * 4, &value, 4);
  return Ok{};
}

Result<ModuleId> FakeBackend::CompileModule(const std::string& source, const std::string& program_name,
                                            const std::vector<std::string>& defines) {
  if (!device_) return InternalError("no fake device open");
  if (auto s = Scripted("compile"); !s) return s.error();
  if (source.empty()) return EnvError("fake compile of " + program_name + ": empty source");
  for (const auto& d : defines)
    if (StartsWith(d, "GD_PLANT_WRONG")) plant_wrong_ = true;
  return ModuleId{next_id_++};
}

Result<FunctionId> FakeBackend::GetFunction(ModuleId, const std::string& name) {
  if (auto s = Scripted("get_function"); !s) return s.error();
  FunctionId id = next_id_++;
  functions_[id] = name;
  return id;
}

Status FakeBackend::Launch(FunctionId fn, Dim3 grid, Dim3, const KernelArgs& args) {
  if (auto s = Scripted("launch"); !s) return s;
  auto it = functions_.find(fn);
  if (it == functions_.end()) return InternalError("unknown function id");
  return EmulateKernel(it->second, grid, args);
}

Status FakeBackend::Synchronize() {
  return Scripted("synchronize");
}

Result<EventId> FakeBackend::CreateEvent() {
  if (auto s = Scripted("create_event"); !s) return s.error();
  EventId id = next_id_++;
  events_[id] = std::chrono::steady_clock::now();
  return id;
}

Status FakeBackend::RecordEvent(EventId e) {
  auto it = events_.find(e);
  if (it == events_.end()) return InternalError("unknown event id");
  it->second = std::chrono::steady_clock::now();
  return Ok{};
}

Result<float> FakeBackend::ElapsedMs(EventId start, EventId end) {
  auto a = events_.find(start), b = events_.find(end);
  if (a == events_.end() || b == events_.end()) return InternalError("unknown event id");
  float ms = std::chrono::duration<float, std::milli>(b->second - a->second).count();
  return ms > 0.001f ? ms : 0.001f;
}

Status FakeBackend::DestroyEvent(EventId e) {
  return events_.erase(e) ? Status(Ok{}) : Status(InternalError("unknown event id"));
}

}  // namespace gpudoctor
