// Snapshot::windows <-> JSON. Optional values become null; reading tolerates missing keys and names
// the first field of a wrong type, as snapshot_json.cpp does for the rest.
#include "snapshot/windows_json.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "snapshot/json_optional.h"
#include "snapshot/pci_id_json.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

Json AdapterToJson(const WindowsAdapter& a) {
  return Json{{"description", a.description},
              {"pci_address", a.pci_address},
              {"pci_id", PciIdPair(a.vendor_id, a.device_id)},
              {"vendor_id", PciIdHex(a.vendor_id)},
              {"device_id", PciIdHex(a.device_id)},
              {"subsystem_vendor_id", OptionalPciIdToJson(a.subsystem_vendor_id)},
              {"subsystem_device_id", OptionalPciIdToJson(a.subsystem_device_id)},
              {"revision", OptionalToJson(a.revision)},
              {"dedicated_video_memory_bytes", OptionalToJson(a.dedicated_video_memory_bytes)},
              {"dedicated_system_memory_bytes", OptionalToJson(a.dedicated_system_memory_bytes)},
              {"shared_system_memory_bytes", OptionalToJson(a.shared_system_memory_bytes)},
              {"registry_memory_bytes", OptionalToJson(a.registry_memory_bytes)},
              {"luid", a.luid},
              {"software", a.software},
              {"integrated", OptionalToJson(a.integrated)},
              {"integrated_reason", a.integrated_reason},
              {"class_key", a.class_key},
              {"driver_description", a.driver_description},
              {"driver_version", a.driver_version},
              {"driver_date", a.driver_date},
              {"driver_provider", a.driver_provider},
              {"driver_service", a.driver_service},
              {"release", a.release},
              {"release_source", a.release_source},
              {"sources", a.sources}};
}

// Typed field reads for one object; the first mismatch is kept in `error` with its path.
class Fields {
 public:
  Fields(const Json& obj, std::string path, std::string& error)
      : obj_(obj), path_(std::move(path)), error_(error) {}

  void Get(const char* key, std::string& out) {
    if (const Json* v = Find(key)) {
      if (v->is_string()) {
        out = v->get<std::string>();
      } else {
        Fail(key, "a string");
      }
    }
  }
  void Get(const char* key, bool& out) {
    if (const Json* v = Find(key)) {
      if (v->is_boolean()) {
        out = v->get<bool>();
      } else {
        Fail(key, "true or false");
      }
    }
  }
  void Get(const char* key, std::optional<bool>& out) {
    if (const Json* v = Find(key)) {
      if (v->is_boolean()) {
        out = v->get<bool>();
      } else {
        Fail(key, "true, false or null");
      }
    }
  }
  template <typename I>
  void Get(const char* key, I& out) {
    if (const Json* v = Find(key)) {
      if (v->is_number_unsigned() && v->get<uint64_t>() <= std::numeric_limits<I>::max()) {
        out = static_cast<I>(v->get<uint64_t>());
      } else {
        Fail(key, "a non-negative integer");
      }
    }
  }
  template <typename I>
  void Get(const char* key, std::optional<I>& out) {
    if (const Json* v = Find(key)) {
      if (v->is_number_unsigned() && v->get<uint64_t>() <= std::numeric_limits<I>::max()) {
        out = static_cast<I>(v->get<uint64_t>());
      } else {
        Fail(key, "a non-negative integer or null");
      }
    }
  }
  // A PCI id: a hex string (schema 2) or a number (schema 1), see snapshot/pci_id_json.h.
  void GetPciId(const char* key, std::optional<uint32_t>& out) {
    if (const Json* v = Find(key)) {
      out = PciIdFromJson(*v);
      if (!out) Fail(key, "a PCI id in hex (\"73df\")");
    }
  }
  void GetPciId(const char* key, uint32_t& out) {
    std::optional<uint32_t> id;
    GetPciId(key, id);
    if (id) out = *id;
  }
  const Json* Array(const char* key) {
    const Json* v = Find(key);
    if (v && !v->is_array()) {
      Fail(key, "an array");
      return nullptr;
    }
    return v;
  }
  std::string PathOf(const char* key) const { return path_ + "." + key; }

 private:
  const Json* Find(const char* key) const {
    auto it = obj_.find(key);
    if (it == obj_.end() || it->is_null()) return nullptr;
    return &*it;
  }
  void Fail(const char* key, const char* want) {
    if (error_.empty()) error_ = "field " + PathOf(key) + " must be " + want;
  }
  const Json& obj_;
  std::string path_;
  std::string& error_;
};

void ReadAdapter(Fields& f, WindowsAdapter& a) {
  f.Get("description", a.description);
  f.Get("pci_address", a.pci_address);
  f.GetPciId("vendor_id", a.vendor_id);
  f.GetPciId("device_id", a.device_id);
  f.GetPciId("subsystem_vendor_id", a.subsystem_vendor_id);
  f.GetPciId("subsystem_device_id", a.subsystem_device_id);
  f.Get("revision", a.revision);
  f.Get("dedicated_video_memory_bytes", a.dedicated_video_memory_bytes);
  f.Get("dedicated_system_memory_bytes", a.dedicated_system_memory_bytes);
  f.Get("shared_system_memory_bytes", a.shared_system_memory_bytes);
  f.Get("registry_memory_bytes", a.registry_memory_bytes);
  f.Get("luid", a.luid);
  f.Get("software", a.software);
  f.Get("integrated", a.integrated);
  f.Get("integrated_reason", a.integrated_reason);
  f.Get("class_key", a.class_key);
  f.Get("driver_description", a.driver_description);
  f.Get("driver_version", a.driver_version);
  f.Get("driver_date", a.driver_date);
  f.Get("driver_provider", a.driver_provider);
  f.Get("driver_service", a.driver_service);
  f.Get("release", a.release);
  f.Get("release_source", a.release_source);
  f.Get("sources", a.sources);
}

template <typename T, typename F>
void ReadObjects(Fields& parent, const char* key, std::vector<T>& out, std::string& error, F read_one) {
  const Json* arr = parent.Array(key);
  if (!arr) return;
  size_t i = 0;
  for (const auto& item : *arr) {
    std::string path = parent.PathOf(key) + "[" + std::to_string(i++) + "]";
    if (!item.is_object()) {
      if (error.empty()) error = "field " + path + " must be an object";
      return;
    }
    Fields f(item, path, error);
    T value{};
    read_one(f, value);
    out.push_back(std::move(value));
  }
}

}  // namespace

nlohmann::ordered_json WindowsInfoToJson(const WindowsInfo& w) {
  Json distros = Json::array();
  for (const auto& d : w.wsl_distros)
    distros.push_back(
        Json{{"name", d.name}, {"version", OptionalToJson(d.version)}, {"is_default", d.is_default}});
  Json pythons = Json::array();
  for (const auto& p : w.python_installs)
    pythons.push_back(
        Json{{"version", p.version}, {"prefix", p.prefix}, {"kind", p.kind}, {"source", p.source}});
  Json adapters = Json::array();
  for (const auto& a : w.adapters) adapters.push_back(AdapterToJson(a));
  return Json{{"product_name", w.product_name},
              {"edition_id", w.edition_id},
              {"display_version", w.display_version},
              {"ubr", OptionalToJson(w.ubr)},
              {"windows11", OptionalToJson(w.windows11)},
              {"windows11_22h2_or_newer", OptionalToJson(w.windows11_22h2_or_newer)},
              {"system_directory", w.system_directory},
              {"virtualization_firmware_enabled", OptionalToJson(w.virtualization_firmware_enabled)},
              {"hypervisor_present", OptionalToJson(w.hypervisor_present)},
              {"wsl_installed", w.wsl_installed},
              {"wsl_distros", distros},
              {"dxgi_status", w.dxgi_status},
              {"adapters", adapters},
              {"python_installs", pythons}};
}

void WindowsInfoFromJson(const nlohmann::ordered_json& object, WindowsInfo& w, std::string& error) {
  if (!object.is_object()) {
    if (error.empty()) error = "field snapshot.windows must be an object";
    return;
  }
  Fields f(object, "snapshot.windows", error);
  f.Get("product_name", w.product_name);
  f.Get("edition_id", w.edition_id);
  f.Get("display_version", w.display_version);
  f.Get("ubr", w.ubr);
  f.Get("windows11", w.windows11);
  f.Get("windows11_22h2_or_newer", w.windows11_22h2_or_newer);
  f.Get("system_directory", w.system_directory);
  f.Get("virtualization_firmware_enabled", w.virtualization_firmware_enabled);
  f.Get("hypervisor_present", w.hypervisor_present);
  f.Get("wsl_installed", w.wsl_installed);
  ReadObjects(f, "wsl_distros", w.wsl_distros, error, [](Fields& d, WindowsWslDistro& out) {
    d.Get("name", out.name);
    d.Get("version", out.version);
    d.Get("is_default", out.is_default);
  });
  f.Get("dxgi_status", w.dxgi_status);
  ReadObjects(f, "adapters", w.adapters, error, ReadAdapter);
  ReadObjects(f, "python_installs", w.python_installs, error, [](Fields& p, WindowsPythonInstall& out) {
    p.Get("version", out.version);
    p.Get("prefix", out.prefix);
    p.Get("kind", out.kind);
    p.Get("source", out.source);
  });
}

}  // namespace gpudoctor
