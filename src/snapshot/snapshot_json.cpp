// Snapshot <-> JSON with nlohmann::json. Optional values become null; reading
// tolerates missing keys (older or partial snapshots) but rejects wrong types
// and schema versions from the future, naming the field.
#include "snapshot/snapshot_json.h"

#include <algorithm>
#include <limits>
#include <new>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "core/json_depth.h"
#include "core/json_reader.h"
#include "snapshot/json_optional.h"
#include "snapshot/pci_id_json.h"
#include "snapshot/topology_json.h"
#include "snapshot/windows_json.h"

namespace gpudoctor {
namespace {

using nlohmann::ordered_json;
using Json = ordered_json;

Json LinkToJson(const PcieLink& l) {
  return Json{{"current_speed_gts", OptionalToJson(l.current_speed_gts)},
              {"current_width", OptionalToJson(l.current_width)},
              {"max_speed_gts", OptionalToJson(l.max_speed_gts)},
              {"max_width", OptionalToJson(l.max_width)},
              {"narrowest_port", l.narrowest_port.empty() ? Json(nullptr) : Json(l.narrowest_port)},
              {"narrowest_speed_gts", OptionalToJson(l.narrowest_speed_gts)},
              {"narrowest_width", OptionalToJson(l.narrowest_width)}};
}

Json PciToJson(const PciDevice& d) {
  return Json{{"address", d.address},
              {"pci_id", PciIdPair(d.vendor_id, d.device_id)},
              {"vendor_id", PciIdHex(d.vendor_id)},
              {"device_id", PciIdHex(d.device_id)},
              {"subsystem_vendor_id", OptionalPciIdToJson(d.subsystem_vendor_id)},
              {"subsystem_device_id", OptionalPciIdToJson(d.subsystem_device_id)},
              {"revision", OptionalToJson(d.revision)},
              {"class_code", d.class_code},
              {"driver", d.driver},
              {"numa_node", OptionalToJson(d.numa_node)},
              {"link", LinkToJson(d.link)},
              {"vendor_name", d.vendor_name},
              {"name", d.name},
              {"name_source", d.name_source},
              {"integrated", OptionalToJson(d.integrated)},
              {"integrated_reason", d.integrated_reason},
              {"drm_card", OptionalToJson(d.drm_card)},
              {"drm_vram_total_bytes", OptionalToJson(d.drm_vram_total_bytes)},
              {"drm_vram_used_bytes", OptionalToJson(d.drm_vram_used_bytes)},
              {"drm_gtt_total_bytes", OptionalToJson(d.drm_gtt_total_bytes)},
              {"gpu_busy_percent", OptionalToJson(d.gpu_busy_percent)}};
}

Json KfdToJson(const KfdNode& n) {
  return Json{{"node_id", n.node_id},
              {"gpu_id", OptionalToJson(n.gpu_id)},
              {"gfx_target_version", n.gfx_target_version},
              {"gfx_target", n.gfx_target},
              {"simd_count", OptionalToJson(n.simd_count)},
              {"simd_per_cu", OptionalToJson(n.simd_per_cu)},
              {"compute_units", OptionalToJson(n.compute_units)},
              {"vram_bytes", OptionalToJson(n.vram_bytes)},
              {"vendor_id", OptionalPciIdToJson(n.vendor_id)},
              {"device_id", OptionalPciIdToJson(n.device_id)},
              {"location_id", OptionalToJson(n.location_id)},
              {"domain", OptionalToJson(n.domain)},
              {"pci_address", n.pci_address},
              {"drm_render_minor", OptionalToJson(n.drm_render_minor)},
              {"max_engine_clock_mhz", OptionalToJson(n.max_engine_clock_mhz)},
              {"wave_front_size", OptionalToJson(n.wave_front_size)},
              {"hive_id", OptionalToJson(n.hive_id)},
              {"num_xcc", OptionalToJson(n.num_xcc)},
              {"cpu_cores_count", OptionalToJson(n.cpu_cores_count)}};
}

Json AccessToJson(const DeviceNodeAccess& a) {
  return Json{{"path", a.path},
              {"exists", a.exists},
              {"accessible", OptionalToJson(a.accessible)},
              {"reason", a.reason},
              {"group", OptionalToJson(a.group)}};
}

Json NvDeviceToJson(const NvidiaDevice& d) {
  return Json{{"index", d.index},
              {"name", d.name},
              {"uuid", d.uuid},
              {"pci_address", d.pci_address},
              {"memory_total_bytes", OptionalToJson(d.memory_total_bytes)},
              {"cc_major", OptionalToJson(d.cc_major)},
              {"cc_minor", OptionalToJson(d.cc_minor)}};
}

Json LibToJson(const LibraryProbe& l) {
  return Json{{"library", l.library},
              {"status", LoadStatusName(l.status)},
              {"loaded_path", l.loaded_path},
              {"detail", l.detail}};
}

Json CdiSpecToJson(const CdiSpec& c) {
  return Json{{"path", c.path}, {"driver_version", c.driver_version}};
}

Json FabricManagerToJson(const FabricManagerInfo& f) {
  return Json{{"nvswitches", f.nvswitches},
              {"binary", f.binary},
              {"unit", f.unit},
              {"enabled", f.enabled},
              {"package", f.package},
              {"version", f.version},
              {"version_source", f.version_source},
              {"nvlsm_version", f.nvlsm_version}};
}

Json RuntimeToJson(const RuntimeInstall& r) {
  return Json{
      {"kind", r.kind}, {"path", r.path}, {"version", r.version}, {"version_source", r.version_source}};
}

Json GpuToJson(const Gpu& g) {
  return Json{{"pci_address", g.pci_address},
              {"vendor", ToString(g.vendor)},
              {"name", g.name},
              {"architecture", g.architecture},
              {"family", g.family},
              {"integrated", OptionalToJson(g.integrated)},
              {"vram_bytes", OptionalToJson(g.vram_bytes)},
              {"compute_units", OptionalToJson(g.compute_units)},
              {"driver", g.driver},
              {"kfd_node", OptionalToJson(g.kfd_node)},
              {"nvml_index", OptionalToJson(g.nvml_index)}};
}

Json RuntimeResolutionToJson(const std::optional<RuntimeResolution>& r) {
  if (!r) return nullptr;
  return Json{{"library", r->library}, {"origin", r->origin}, {"path", r->path}};
}

Json GpuCodeToJson(const GpuCodeLibrary& g) {
  return Json{{"path", g.path},
              {"cuda_cubins", g.cuda_cubins},
              {"cuda_cubin_images", g.cuda_cubin_images},
              {"cuda_ptx", g.cuda_ptx},
              {"amd", g.amd},
              {"warnings", g.warnings}};
}

Json KernelFolderToJson(const KernelLibraryFolder& k) {
  return Json{{"library", k.library}, {"folder", k.folder}, {"gfx", k.gfx}, {"files", k.files}};
}

Json LibraryFolderToJson(const GpuLibraryFolder& f) {
  return Json{{"path", f.path}, {"provider", f.provider}, {"runtimes", f.runtimes}};
}

Json FrameworkToJson(const FrameworkInstall& f) {
  return Json{{"name", f.name},          {"family", f.family},
              {"version", f.version},    {"backend", f.backend},
              {"source", f.source},      {"runtime", RuntimeResolutionToJson(f.runtime)},
              {"torch_pin", f.torch_pin}};
}

Json LiveToJson(const std::optional<PythonLiveRun>& l) {
  if (!l) return nullptr;
  return Json{{"interpreter", l->interpreter},
              {"status", l->status},
              {"exit_code", OptionalToJson(l->exit_code)},
              {"signal", OptionalToJson(l->signal)},
              {"elapsed_ms", l->elapsed_ms},
              {"error", l->error},
              {"stage", l->stage},
              {"stderr_tail", l->stderr_tail},
              {"torch_version", l->torch_version},
              {"torch_file", l->torch_file},
              {"cuda", l->cuda},
              {"hip", l->hip},
              {"cuda_available", OptionalToJson(l->cuda_available)},
              {"device_count", OptionalToJson(l->device_count)},
              {"device_names", l->device_names},
              {"arch_list", l->arch_list},
              {"matmul_max_abs_error", OptionalToJson(l->matmul_max_abs_error)},
              {"matmul_max_abs_value", OptionalToJson(l->matmul_max_abs_value)}};
}

template <typename T, typename F>
Json Array(const std::vector<T>& items, F convert);

Json PinToJson(const ProjectPin& p) {
  return Json{{"file", p.file}, {"line", p.line},     {"text", p.text},          {"package", p.package},
              {"spec", p.spec}, {"marker", p.marker}, {"index_url", p.index_url}};
}

Json ProjectToJson(const PythonProject& p) {
  return Json{
      {"folder", p.folder}, {"manager", p.manager}, {"files", p.files}, {"pins", Array(p.pins, PinToJson)}};
}

Json PythonEnvToJson(const PythonEnv& e) {
  Json torch = nullptr;
  if (e.torch) {
    torch = Json{{"version", e.torch->version},
                 {"cuda", e.torch->cuda},
                 {"hip", e.torch->hip},
                 {"location", e.torch->location},
                 {"git_version", e.torch->git_version},
                 {"debug", OptionalToJson(e.torch->debug)},
                 {"arch_list", e.torch->arch_list},
                 {"gpu_code", Array(e.torch->gpu_code, GpuCodeToJson)},
                 {"kernel_libraries", Array(e.torch->kernel_libraries, KernelFolderToJson)},
                 {"runtime", RuntimeResolutionToJson(e.torch->runtime)}};
  }
  Json env{{"path", e.path},
           {"kind", e.kind},
           {"python_version", e.python_version},
           {"site_packages", e.site_packages},
           {"torch", torch},
           {"interpreter", e.interpreter},
           {"python_version_source", e.python_version_source},
           {"found_by", e.found_by},
           {"active", e.active},
           {"frameworks", Array(e.frameworks, FrameworkToJson)},
           {"gpu_libraries", Array(e.gpu_libraries, LibraryFolderToJson)},
           {"live", LiveToJson(e.live)}};
  // Written only when a pin file was found, so that snapshots without a project stay as they were.
  if (e.project) env["project"] = ProjectToJson(*e.project);
  return env;
}

template <typename T, typename F>
Json Array(const std::vector<T>& items, F convert) {
  Json out = Json::array();
  for (const auto& item : items) out.push_back(convert(item));
  return out;
}

// ---- reading ----

// Reads fields from one JSON object; the first type error is kept with its path.
class Reader {
 public:
  Reader(const Json& obj, std::string path, std::string* error)
      : obj_(obj), path_(std::move(path)), error_(error) {}

  template <typename T>
  void Get(const char* key, T& out) {
    const Json* v = Find(key);
    if (!v || v->is_null()) return;
    Assign(key, *v, out);
  }
  template <typename T>
  void Get(const char* key, std::optional<T>& out) {
    const Json* v = Find(key);
    if (!v || v->is_null()) return;
    T tmp{};
    if (Assign(key, *v, tmp)) out = tmp;
  }
  // A PCI id: a hex string (schema 2) or a number (schema 1), see snapshot/pci_id_json.h.
  void GetPciId(const char* key, std::optional<uint32_t>& out) {
    const Json* v = Find(key);
    if (!v || v->is_null()) return;
    out = PciIdFromJson(*v);
    if (!out) Fail(key, "a PCI id in hex (\"73df\")");
  }
  void GetPciId(const char* key, uint32_t& out) {
    std::optional<uint32_t> id;
    GetPciId(key, id);
    if (id) out = *id;
  }
  const Json* Child(const char* key, bool want_array) {
    const Json* v = Find(key);
    if (!v || v->is_null()) return nullptr;
    if (want_array ? !v->is_array() : !v->is_object()) {
      Fail(key, want_array ? "an array" : "an object");
      return nullptr;
    }
    return v;
  }
  std::string PathOf(const char* key) const { return path_ + "." + key; }
  std::string* error() const { return error_; }

 private:
  const Json* Find(const char* key) const {
    auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }
  void Fail(const char* key, const char* want) {
    if (error_->empty()) *error_ = "field " + PathOf(key) + " must be " + want;
  }
  bool Assign(const char* key, const Json& v, std::string& out) {
    if (!v.is_string()) return Fail(key, "a string"), false;
    out = v.get<std::string>();
    return true;
  }
  bool Assign(const char* key, const Json& v, LoadStatus& out) {
    const auto status = v.is_string() ? LoadStatusFromName(v.get<std::string>()) : std::nullopt;
    if (!status) return Fail(key, std::string(LoadStatusNames()).c_str()), false;
    out = *status;
    return true;
  }
  bool Assign(const char* key, const Json& v, bool& out) {
    if (!v.is_boolean()) return Fail(key, "true or false"), false;
    out = v.get<bool>();
    return true;
  }
  bool Assign(const char* key, const Json& v, double& out) {
    if (!v.is_number()) return Fail(key, "a number"), false;
    out = v.get<double>();
    return true;
  }
  template <typename I>
  bool AssignInt(const char* key, const Json& v, I& out) {
    if (v.is_number_unsigned()) {
      auto u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<I>::max()))
        return Fail(key, "a smaller number"), false;
      out = static_cast<I>(u);
      return true;
    }
    if (v.is_number_integer()) {
      auto s = v.get<int64_t>();
      if constexpr (std::is_unsigned_v<I>) {
        if (s < 0) return Fail(key, "a non-negative integer"), false;
      } else {
        if (s < static_cast<int64_t>(std::numeric_limits<I>::min()))
          return Fail(key, "a larger number"), false;
      }
      if (static_cast<uint64_t>(s) > static_cast<uint64_t>(std::numeric_limits<I>::max()) && s > 0)
        return Fail(key, "a smaller number"), false;
      out = static_cast<I>(s);
      return true;
    }
    return Fail(key, "an integer"), false;
  }
  bool Assign(const char* key, const Json& v, uint32_t& out) { return AssignInt(key, v, out); }
  bool Assign(const char* key, const Json& v, uint64_t& out) { return AssignInt(key, v, out); }
  bool Assign(const char* key, const Json& v, int32_t& out) { return AssignInt(key, v, out); }

  const Json& obj_;
  std::string path_;
  std::string* error_;
};

template <typename T, typename F>
void ReadArray(Reader& parent, const char* key, std::vector<T>& out, F read_one) {
  const Json* arr = parent.Child(key, true);
  if (!arr) return;
  size_t i = 0;
  for (const auto& item : *arr) {
    std::string path = parent.PathOf(key) + "[" + std::to_string(i++) + "]";
    if (!item.is_object()) {
      if (parent.error()->empty()) *parent.error() = "field " + path + " must be an object";
      return;
    }
    Reader r(item, path, parent.error());
    T value{};
    read_one(r, value);
    out.push_back(std::move(value));
  }
}

void ReadStringArray(Reader& parent, const char* key, std::vector<std::string>& out) {
  const Json* arr = parent.Child(key, true);
  if (!arr) return;
  for (const auto& item : *arr) {
    if (!item.is_string()) {
      if (parent.error()->empty()) *parent.error() = "field " + parent.PathOf(key) + " must hold strings";
      return;
    }
    out.push_back(item.get<std::string>());
  }
}

void ReadLink(Reader& r, PcieLink& l) {
  r.Get("current_speed_gts", l.current_speed_gts);
  r.Get("current_width", l.current_width);
  r.Get("max_speed_gts", l.max_speed_gts);
  r.Get("max_width", l.max_width);
  std::optional<std::string> port;
  r.Get("narrowest_port", port);
  l.narrowest_port = port.value_or("");
  r.Get("narrowest_speed_gts", l.narrowest_speed_gts);
  r.Get("narrowest_width", l.narrowest_width);
}

void ReadPci(Reader& r, PciDevice& d) {
  r.Get("address", d.address);
  r.GetPciId("vendor_id", d.vendor_id);
  r.GetPciId("device_id", d.device_id);
  r.GetPciId("subsystem_vendor_id", d.subsystem_vendor_id);
  r.GetPciId("subsystem_device_id", d.subsystem_device_id);
  r.Get("revision", d.revision);
  r.Get("class_code", d.class_code);
  r.Get("driver", d.driver);
  r.Get("numa_node", d.numa_node);
  if (const Json* link = r.Child("link", false)) {
    Reader lr(*link, r.PathOf("link"), r.error());
    ReadLink(lr, d.link);
  }
  r.Get("vendor_name", d.vendor_name);
  r.Get("name", d.name);
  r.Get("name_source", d.name_source);
  r.Get("integrated", d.integrated);
  r.Get("integrated_reason", d.integrated_reason);
  r.Get("drm_card", d.drm_card);
  r.Get("drm_vram_total_bytes", d.drm_vram_total_bytes);
  r.Get("drm_vram_used_bytes", d.drm_vram_used_bytes);
  r.Get("drm_gtt_total_bytes", d.drm_gtt_total_bytes);
  r.Get("gpu_busy_percent", d.gpu_busy_percent);
}

void ReadKfd(Reader& r, KfdNode& n) {
  r.Get("node_id", n.node_id);
  r.Get("gpu_id", n.gpu_id);
  r.Get("gfx_target_version", n.gfx_target_version);
  r.Get("gfx_target", n.gfx_target);
  r.Get("simd_count", n.simd_count);
  r.Get("simd_per_cu", n.simd_per_cu);
  r.Get("compute_units", n.compute_units);
  r.Get("vram_bytes", n.vram_bytes);
  r.GetPciId("vendor_id", n.vendor_id);
  r.GetPciId("device_id", n.device_id);
  r.Get("location_id", n.location_id);
  r.Get("domain", n.domain);
  r.Get("pci_address", n.pci_address);
  r.Get("drm_render_minor", n.drm_render_minor);
  r.Get("max_engine_clock_mhz", n.max_engine_clock_mhz);
  r.Get("wave_front_size", n.wave_front_size);
  r.Get("hive_id", n.hive_id);
  r.Get("num_xcc", n.num_xcc);
  r.Get("cpu_cores_count", n.cpu_cores_count);
}

void ReadAccess(Reader& r, DeviceNodeAccess& a) {
  r.Get("path", a.path);
  r.Get("exists", a.exists);
  r.Get("accessible", a.accessible);
  r.Get("reason", a.reason);
  r.Get("group", a.group);
}

void ReadNvDevice(Reader& r, NvidiaDevice& d) {
  r.Get("index", d.index);
  r.Get("name", d.name);
  r.Get("uuid", d.uuid);
  r.Get("pci_address", d.pci_address);
  r.Get("memory_total_bytes", d.memory_total_bytes);
  r.Get("cc_major", d.cc_major);
  r.Get("cc_minor", d.cc_minor);
}

void ReadLib(Reader& r, LibraryProbe& l) {
  r.Get("library", l.library);
  r.Get("status", l.status);
  r.Get("loaded_path", l.loaded_path);
  r.Get("detail", l.detail);
}

void ReadCdiSpec(Reader& r, CdiSpec& c) {
  r.Get("path", c.path);
  r.Get("driver_version", c.driver_version);
}

void ReadFabricManager(Reader& r, FabricManagerInfo& f) {
  r.Get("nvswitches", f.nvswitches);
  r.Get("binary", f.binary);
  r.Get("unit", f.unit);
  r.Get("enabled", f.enabled);
  r.Get("package", f.package);
  r.Get("version", f.version);
  r.Get("version_source", f.version_source);
  r.Get("nvlsm_version", f.nvlsm_version);
}

void ReadRuntime(Reader& r, RuntimeInstall& x) {
  r.Get("kind", x.kind);
  r.Get("path", x.path);
  r.Get("version", x.version);
  r.Get("version_source", x.version_source);
}

void ReadGpu(Reader& r, Gpu& g) {
  r.Get("pci_address", g.pci_address);
  std::string vendor;
  r.Get("vendor", vendor);
  g.vendor = GpuVendorFromString(vendor);
  r.Get("name", g.name);
  r.Get("architecture", g.architecture);
  r.Get("family", g.family);
  r.Get("integrated", g.integrated);
  r.Get("vram_bytes", g.vram_bytes);
  r.Get("compute_units", g.compute_units);
  r.Get("driver", g.driver);
  r.Get("kfd_node", g.kfd_node);
  r.Get("nvml_index", g.nvml_index);
}

std::optional<RuntimeResolution> ReadRuntimeResolution(Reader& r, const char* key) {
  const Json* obj = r.Child(key, false);
  if (!obj) return std::nullopt;
  Reader x(*obj, r.PathOf(key), r.error());
  RuntimeResolution out;
  x.Get("library", out.library);
  x.Get("origin", out.origin);
  x.Get("path", out.path);
  return out;
}

void ReadGpuCode(Reader& r, GpuCodeLibrary& g) {
  r.Get("path", g.path);
  ReadStringArray(r, "cuda_cubins", g.cuda_cubins);
  if (const Json* counts = r.Child("cuda_cubin_images", false)) {
    for (const auto& [arch, n] : counts->items()) {
      if (!n.is_number_unsigned()) {
        if (r.error()->empty())
          *r.error() = "field " + r.PathOf("cuda_cubin_images") + " must map archs to counts";
        break;
      }
      g.cuda_cubin_images[arch] = n.get<uint64_t>();
    }
  }
  ReadStringArray(r, "cuda_ptx", g.cuda_ptx);
  ReadStringArray(r, "amd", g.amd);
  ReadStringArray(r, "warnings", g.warnings);
}

void ReadKernelFolder(Reader& r, KernelLibraryFolder& k) {
  r.Get("library", k.library);
  r.Get("folder", k.folder);
  ReadStringArray(r, "gfx", k.gfx);
  r.Get("files", k.files);
}

void ReadLibraryFolder(Reader& r, GpuLibraryFolder& f) {
  r.Get("path", f.path);
  r.Get("provider", f.provider);
  ReadStringArray(r, "runtimes", f.runtimes);
}

void ReadFramework(Reader& r, FrameworkInstall& f) {
  r.Get("name", f.name);
  r.Get("family", f.family);
  r.Get("version", f.version);
  r.Get("backend", f.backend);
  r.Get("source", f.source);
  f.runtime = ReadRuntimeResolution(r, "runtime");
  r.Get("torch_pin", f.torch_pin);  // absent before the add-on checks: no pin
}

void ReadLive(Reader& r, PythonLiveRun& l) {
  r.Get("interpreter", l.interpreter);
  r.Get("status", l.status);
  r.Get("exit_code", l.exit_code);
  r.Get("signal", l.signal);
  r.Get("elapsed_ms", l.elapsed_ms);
  r.Get("error", l.error);
  r.Get("stage", l.stage);
  ReadStringArray(r, "stderr_tail", l.stderr_tail);
  r.Get("torch_version", l.torch_version);
  r.Get("torch_file", l.torch_file);
  r.Get("cuda", l.cuda);
  r.Get("hip", l.hip);
  r.Get("cuda_available", l.cuda_available);
  r.Get("device_count", l.device_count);
  ReadStringArray(r, "device_names", l.device_names);
  ReadStringArray(r, "arch_list", l.arch_list);
  r.Get("matmul_max_abs_error", l.matmul_max_abs_error);
  r.Get("matmul_max_abs_value", l.matmul_max_abs_value);
}

void ReadPin(Reader& r, ProjectPin& p) {
  r.Get("file", p.file);
  r.Get("line", p.line);
  r.Get("text", p.text);
  r.Get("package", p.package);
  r.Get("spec", p.spec);
  r.Get("marker", p.marker);
  r.Get("index_url", p.index_url);
}

void ReadPythonEnv(Reader& r, PythonEnv& e) {
  r.Get("path", e.path);
  r.Get("kind", e.kind);
  r.Get("python_version", e.python_version);
  r.Get("site_packages", e.site_packages);
  if (const Json* torch = r.Child("torch", false)) {
    Reader t(*torch, r.PathOf("torch"), r.error());
    TorchInstall ti;
    t.Get("version", ti.version);
    t.Get("cuda", ti.cuda);
    t.Get("hip", ti.hip);
    t.Get("location", ti.location);
    t.Get("git_version", ti.git_version);
    t.Get("debug", ti.debug);
    ReadStringArray(t, "arch_list", ti.arch_list);
    ReadArray(t, "gpu_code", ti.gpu_code, ReadGpuCode);
    ReadArray(t, "kernel_libraries", ti.kernel_libraries, ReadKernelFolder);
    ti.runtime = ReadRuntimeResolution(t, "runtime");
    e.torch = ti;
  }
  r.Get("interpreter", e.interpreter);
  r.Get("python_version_source", e.python_version_source);
  ReadStringArray(r, "found_by", e.found_by);
  r.Get("active", e.active);
  ReadArray(r, "frameworks", e.frameworks, ReadFramework);
  ReadArray(r, "gpu_libraries", e.gpu_libraries, ReadLibraryFolder);
  if (const Json* live = r.Child("live", false)) {
    Reader l(*live, r.PathOf("live"), r.error());
    PythonLiveRun run;
    ReadLive(l, run);
    e.live = run;
  }
  if (const Json* project = r.Child("project", false)) {  // absent: no pin file was found
    Reader p(*project, r.PathOf("project"), r.error());
    PythonProject pr;
    p.Get("folder", pr.folder);
    p.Get("manager", pr.manager);
    ReadStringArray(p, "files", pr.files);
    ReadArray(p, "pins", pr.pins, ReadPin);
    e.project = pr;
  }
}

}  // namespace

// The line of the first syntax error (parsed again with exceptions, on the error path only).
std::string SnapshotToJson(const Snapshot& s) {
  Json os{{"family", std::string(OsFamilyName(s.os.family))},
          {"distro_id", s.os.distro_id},
          {"distro_id_like", s.os.distro_id_like},
          {"distro_name", s.os.distro_name},
          {"distro_version", s.os.distro_version},
          {"kernel_release", s.os.kernel_release},
          {"kernel_version_text", s.os.kernel_version_text},
          {"wsl", s.os.wsl},
          {"wsl_evidence", s.os.wsl_evidence},
          {"container", OptionalToJson(s.os.container)},
          {"container_evidence", s.os.container_evidence},
          {"virtual_machine", OptionalToJson(s.os.virtual_machine)},
          {"virtual_machine_evidence", s.os.virtual_machine_evidence},
          {"windows_build", OptionalToJson(s.os.windows_build)},
          {"secure_boot", OptionalToJson(s.os.secure_boot)}};
  Json amd{{"kfd_topology_present", s.amd.kfd_topology_present},
           {"amdgpu_module_loaded", s.amd.amdgpu_module_loaded},
           {"amdgpu_module_version", OptionalToJson(s.amd.amdgpu_module_version)},
           {"kfd_nodes", Array(s.amd.kfd_nodes, KfdToJson)},
           {"device_nodes", Array(s.amd.device_nodes, AccessToJson)},
           {"module_kernels", s.amd.module_kernels ? Json(*s.amd.module_kernels) : Json(nullptr)},
           {"dkms_module_kernels", s.amd.dkms_module_kernels}};
  Json nvidia{{"driver_version", OptionalToJson(s.nvidia.driver_version)},
              {"driver_version_source", s.nvidia.driver_version_source},
              {"kernel_module", s.nvidia.kernel_module == NvidiaKernelModule::kUnknown
                                    ? Json(nullptr)
                                    : Json(ToString(s.nvidia.kernel_module))},
              {"cuda_driver_version", OptionalToJson(s.nvidia.cuda_driver_version)},
              {"devices", Array(s.nvidia.devices, NvDeviceToJson)},
              {"libraries", Array(s.nvidia.libraries, LibToJson)},
              {"module_kernels", s.nvidia.module_kernels ? Json(*s.nvidia.module_kernels) : Json(nullptr)}};
  if (!s.nvidia.cdi_specs.empty())  // absent when none: the machines recorded before it read the same
    nvidia["cdi_specs"] = Array(s.nvidia.cdi_specs, CdiSpecToJson);
  if (s.nvidia.fabric_manager)  // absent where no NVSwitch was found
    nvidia["fabric_manager"] = FabricManagerToJson(*s.nvidia.fabric_manager);
  Json env = Json::object();
  for (const auto& [k, v] : s.environment) env[k] = v;
  Json doc{
      {"schema", SchemaName("snapshot", kSnapshotSchemaVersion)},  // always this version's form
      {"tool_version", s.tool_version},
      {"sysroot", s.sysroot},
      {"live_machine", s.live_machine},
      {"host_name", s.host_name},
      {"user", Json{{"name", s.user.name}, {"groups", s.user.group_names}, {"is_admin", s.user.is_admin}}},
      {"os", os},
      {"cpu", Json{{"model", s.cpu.model},
                   {"logical_cores", OptionalToJson(s.cpu.logical_cores)},
                   {"physical_cores", OptionalToJson(s.cpu.physical_cores)},
                   {"sockets", OptionalToJson(s.cpu.sockets)}}},
      {"memory", Json{{"total_bytes", OptionalToJson(s.memory.total_bytes)},
                      {"available_bytes", OptionalToJson(s.memory.available_bytes)}}},
      {"disk", Json{{"path", s.disk.path},
                    {"total_bytes", OptionalToJson(s.disk.total_bytes)},
                    {"free_bytes", OptionalToJson(s.disk.free_bytes)}}},
      {"gpus", Array(s.gpus, GpuToJson)},
      {"pci_devices", Array(s.pci_devices, PciToJson)},
      {"amd", amd},
      {"nvidia", nvidia},
      {"runtimes", Array(s.runtimes, RuntimeToJson)},
      {"environment", env},
      {"python_envs", Array(s.python_envs, PythonEnvToJson)},
      {"topology", s.topology ? TopologyToJson(*s.topology) : Json(nullptr)},
      {"looked_at", s.looked_at},
      {"warnings", s.warnings}};
  if (s.os.family == OsFamily::kWindows) doc["windows"] = WindowsInfoToJson(s.windows);
  return doc.dump(2) + "\n";
}

namespace {

// The document's schema: "gpudoctor.snapshot/2", or before the convention "gpudoctor.snapshot" with
// "schema_version" (json_reader.h); a version newer than this build's is refused.
Status ReadSchemaVersion(const Json& doc, const std::string& origin, Reader& r, int& schema_version) {
  auto schema = doc.find("schema");
  std::optional<std::string> name;
  if (schema != doc.end() && schema->is_string()) name = schema->get<std::string>();
  auto version = doc.find("schema_version");
  const DocumentSchema kind = SchemaFromFields(name ? &*name : nullptr,
                                               version != doc.end() && version->is_number_integer()
                                                   ? std::optional(version->get<int64_t>())
                                                   : std::nullopt,
                                               false);
  if (kind.kind != "snapshot")
    return UserError(origin + ": not a gpudoctor snapshot (\"schema\" is not \"" +
                         SchemaName("snapshot", kSnapshotSchemaVersion) + "\")",
                     "pass a file written by `gpudoctor info --save FILE`");
  if (kind.name.find('/') == std::string::npos)
    r.Get("schema_version", schema_version);  // the old form; absent: this version's
  else if (kind.major >= 1)
    schema_version = static_cast<int>(std::min<int64_t>(kind.major, kSnapshotSchemaVersion + 1));
  else
    return UserError(origin + ": snapshot schema \"" + kind.name + "\" names no valid version",
                     "pass a file written by `gpudoctor info --save FILE`");
  if (r.error()->empty() && schema_version > kSnapshotSchemaVersion)
    return UserError(origin + ": snapshot schema version " + std::to_string(schema_version) +
                         " is newer than this gpudoctor understands (" +
                         std::to_string(kSnapshotSchemaVersion) + ")",
                     "update gpudoctor");
  return Ok{};
}

// The machine's own parts: user, OS, CPU, memory, disk.
void ReadHost(Reader& r, Snapshot& s, std::string& error) {
  if (const Json* user = r.Child("user", false)) {
    Reader u(*user, "snapshot.user", &error);
    u.Get("name", s.user.name);
    ReadStringArray(u, "groups", s.user.group_names);
    u.Get("is_admin", s.user.is_admin);
  }
  if (const Json* os = r.Child("os", false)) {
    Reader o(*os, "snapshot.os", &error);
    std::string family;
    o.Get("family", family);
    s.os.family = OsFamilyFromName(family);
    o.Get("distro_id", s.os.distro_id);
    ReadStringArray(o, "distro_id_like", s.os.distro_id_like);
    o.Get("distro_name", s.os.distro_name);
    o.Get("distro_version", s.os.distro_version);
    o.Get("kernel_release", s.os.kernel_release);
    o.Get("kernel_version_text", s.os.kernel_version_text);
    o.Get("wsl", s.os.wsl);
    ReadStringArray(o, "wsl_evidence", s.os.wsl_evidence);
    o.Get("container", s.os.container);
    ReadStringArray(o, "container_evidence", s.os.container_evidence);
    o.Get("virtual_machine", s.os.virtual_machine);
    ReadStringArray(o, "virtual_machine_evidence", s.os.virtual_machine_evidence);
    o.Get("windows_build", s.os.windows_build);
    o.Get("secure_boot", s.os.secure_boot);
  }
  if (const Json* cpu = r.Child("cpu", false)) {
    Reader c(*cpu, "snapshot.cpu", &error);
    c.Get("model", s.cpu.model);
    c.Get("logical_cores", s.cpu.logical_cores);
    c.Get("physical_cores", s.cpu.physical_cores);
    c.Get("sockets", s.cpu.sockets);
  }
  if (const Json* mem = r.Child("memory", false)) {
    Reader m(*mem, "snapshot.memory", &error);
    m.Get("total_bytes", s.memory.total_bytes);
    m.Get("available_bytes", s.memory.available_bytes);
  }
  if (const Json* disk = r.Child("disk", false)) {
    Reader d(*disk, "snapshot.disk", &error);
    d.Get("path", s.disk.path);
    d.Get("total_bytes", s.disk.total_bytes);
    d.Get("free_bytes", s.disk.free_bytes);
  }
}

// What the vendors' stacks showed: AMD's KFD and modules, NVIDIA's driver, devices, libraries and CDI.
void ReadVendors(Reader& r, Snapshot& s, std::string& error) {
  if (const Json* amd = r.Child("amd", false)) {
    Reader a(*amd, "snapshot.amd", &error);
    a.Get("kfd_topology_present", s.amd.kfd_topology_present);
    a.Get("amdgpu_module_loaded", s.amd.amdgpu_module_loaded);
    a.Get("amdgpu_module_version", s.amd.amdgpu_module_version);
    ReadArray(a, "kfd_nodes", s.amd.kfd_nodes, ReadKfd);
    ReadArray(a, "device_nodes", s.amd.device_nodes, ReadAccess);
    if (a.Child("module_kernels", true) != nullptr) {  // null or absent: not read
      s.amd.module_kernels.emplace();
      ReadStringArray(a, "module_kernels", *s.amd.module_kernels);
    }
    if (a.Child("dkms_module_kernels", true) != nullptr)
      ReadStringArray(a, "dkms_module_kernels", s.amd.dkms_module_kernels);
  }
  if (const Json* nv = r.Child("nvidia", false)) {
    Reader n(*nv, "snapshot.nvidia", &error);
    n.Get("driver_version", s.nvidia.driver_version);
    n.Get("driver_version_source", s.nvidia.driver_version_source);
    // Absent before issue 13, null when unknown; a value this version does not know reads as unknown.
    std::optional<std::string> kernel_module;
    n.Get("kernel_module", kernel_module);
    if (kernel_module) s.nvidia.kernel_module = NvidiaKernelModuleFromString(*kernel_module);
    n.Get("cuda_driver_version", s.nvidia.cuda_driver_version);
    ReadArray(n, "devices", s.nvidia.devices, ReadNvDevice);
    ReadArray(n, "libraries", s.nvidia.libraries, ReadLib);
    if (n.Child("module_kernels", true) != nullptr) {  // null or absent: not read
      s.nvidia.module_kernels.emplace();
      ReadStringArray(n, "module_kernels", *s.nvidia.module_kernels);
    }
    if (n.Child("cdi_specs", true) != nullptr) ReadArray(n, "cdi_specs", s.nvidia.cdi_specs, ReadCdiSpec);
    if (const Json* fm = n.Child("fabric_manager", false)) {
      Reader f(*fm, n.PathOf("fabric_manager"), &error);
      ReadFabricManager(f, s.nvidia.fabric_manager.emplace());
    }
  }
}

// The environment variables recorded, each a string.
void ReadEnvironment(Reader& r, std::map<std::string, std::string>& environment, std::string& error) {
  if (const Json* env = r.Child("environment", false)) {
    for (auto it = env->begin(); it != env->end(); ++it) {
      if (!it->is_string()) {
        if (error.empty()) error = "field snapshot.environment." + it.key() + " must be a string";
        break;
      }
      environment[it.key()] = it->get<std::string>();
    }
  }
}

Result<Snapshot> ReadSnapshotJson(std::string_view text, const std::string& origin) {
  if (auto too_deep = JsonTooDeep(text, origin))
    return UserError(*too_deep, "pass a file written by `gpudoctor info --save FILE`");
  Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return UserError(origin + ":" + std::to_string(JsonErrorLine(text)) + ": not valid JSON",
                     "pass a file written by `gpudoctor info --save FILE`");
  if (!doc.is_object()) return UserError(origin + ": a snapshot must be a JSON object");
  std::string error;
  Snapshot s;
  Reader r(doc, "snapshot", &error);
  if (Status version = ReadSchemaVersion(doc, origin, r, s.schema_version); !version.ok())
    return version.error();
  r.Get("tool_version", s.tool_version);
  r.Get("sysroot", s.sysroot);
  r.Get("live_machine", s.live_machine);
  r.Get("host_name", s.host_name);
  ReadHost(r, s, error);
  ReadArray(r, "gpus", s.gpus, ReadGpu);
  ReadArray(r, "pci_devices", s.pci_devices, ReadPci);
  ReadVendors(r, s, error);
  ReadArray(r, "runtimes", s.runtimes, ReadRuntime);
  ReadEnvironment(r, s.environment, error);
  ReadArray(r, "python_envs", s.python_envs, ReadPythonEnv);
  // Absent in snapshots saved before the topology joined the Snapshot: read as not probed.
  if (auto t = doc.find("topology"); t != doc.end() && !t->is_null() && error.empty()) {
    Topology topology;
    TopologyFromJson(JsonValue(*t), topology, error);
    s.topology = std::move(topology);
  }
  ReadStringArray(r, "looked_at", s.looked_at);
  ReadStringArray(r, "warnings", s.warnings);
  if (auto w = doc.find("windows"); w != doc.end() && !w->is_null())
    WindowsInfoFromJson(*w, s.windows, error);
  if (!error.empty()) return UserError(origin + ": " + error);
  return s;
}

}  // namespace

Result<Snapshot> SnapshotFromJson(std::string_view text, const std::string& origin) {
  // Parsed JSON takes about 25 times its text (issue 35): the ceiling holds that to a few hundred MiB,
  // and running out of memory below it is an error, never std::terminate.
  if (text.size() > kMaxSnapshotBytes)
    return UserError(origin + " is " + std::to_string(text.size() >> 20) + " MiB; a snapshot is at most " +
                         std::to_string(kMaxSnapshotBytes >> 20) + " MiB (a large machine's is under 1 MiB)",
                     "pass a file written by `gpudoctor info --save FILE`");
  try {
    return ReadSnapshotJson(text, origin);
  } catch (const std::bad_alloc&) {
    return EnvError(origin + ": not enough memory to read this snapshot",
                    "free some memory, or check that the file is a snapshot");
  }
}

}  // namespace gpudoctor
