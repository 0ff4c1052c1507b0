// Reading and writing the recorded Windows inputs (formats in recorded_windows_json.h) with
// nlohmann::json, never throwing: malformed entries are skipped and named in `problems`.
#include "probe/windows/recorded_windows_json.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/json_depth.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

using OrderedJson = nlohmann::ordered_json;

Result<OrderedJson> ParseObject(std::string_view text, const char* what) {
  OrderedJson doc = ParseJsonWithinDepth<OrderedJson>(text);
  if (doc.is_discarded()) return UserError(std::string(what) + " is not valid JSON");
  if (!doc.is_object()) return UserError(std::string(what) + " must hold a JSON object");
  return doc;
}

// An integer or a "0x..." / decimal string.
std::optional<uint64_t> RecordedNumber(const OrderedJson& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (StartsWith(s, "0x") || StartsWith(s, "0X")) return ParseHex(s);
    return ParseU64(s);
  }
  return std::nullopt;
}

const OrderedJson* Member(const OrderedJson& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

template <typename T>
void ReadNumber(const OrderedJson& obj, const char* key, std::optional<T>& out, const std::string& where,
                std::vector<std::string>& problems) {
  const OrderedJson* v = Member(obj, key);
  if (!v) return;
  auto n = RecordedNumber(*v);
  if (!n || *n > std::numeric_limits<T>::max()) {
    problems.push_back(where + "." + key + " is not a number");
    return;
  }
  out = static_cast<T>(*n);
}

void ReadBool(const OrderedJson& obj, const char* key, std::optional<bool>& out, const std::string& where,
              std::vector<std::string>& problems) {
  const OrderedJson* v = Member(obj, key);
  if (!v) return;
  if (!v->is_boolean()) {
    problems.push_back(where + "." + key + " is not true or false");
    return;
  }
  out = v->get<bool>();
}

std::string HexText(uint64_t v, int width) {
  return "0x" + Hex(v, width);
}

std::string ToHexBytes(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) out += Hex(c, 2);
  return out;
}

std::optional<std::string> FromHexBytes(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    auto b = ParseU64(hex.substr(i, 2), 16);
    if (!b) return std::nullopt;
    out += static_cast<char>(*b);
  }
  return out;
}

std::optional<RegistryValue> ValueFromJson(const OrderedJson& v) {
  RegistryValue out;
  if (v.is_string()) return RegistryValue::String(v.get<std::string>());
  if (v.is_number_unsigned() || v.is_number_integer()) {
    auto n = RecordedNumber(v);
    if (!n || *n > 0xFFFFFFFFull) return std::nullopt;
    return RegistryValue::Dword(static_cast<uint32_t>(*n));
  }
  auto strings = [](const OrderedJson& arr, std::vector<std::string>& into) {
    for (const auto& s : arr) {
      if (!s.is_string()) return false;
      into.push_back(s.get<std::string>());
    }
    return true;
  };
  if (v.is_array()) {
    out.type = RegistryValue::Type::kMultiString;
    if (!strings(v, out.strings)) return std::nullopt;
    return out;
  }
  if (!v.is_object()) return std::nullopt;
  const OrderedJson* type = Member(v, "type");
  const OrderedJson* value = Member(v, "value");
  if (!type || !type->is_string() || !value) return std::nullopt;
  std::string t = type->get<std::string>();
  if (t == "REG_SZ" || t == "REG_EXPAND_SZ") {
    if (!value->is_string()) return std::nullopt;
    out.type = t == "REG_SZ" ? RegistryValue::Type::kString : RegistryValue::Type::kExpandString;
    out.text = value->get<std::string>();
    return out;
  }
  if (t == "REG_MULTI_SZ") {
    if (!value->is_array()) return std::nullopt;
    out.type = RegistryValue::Type::kMultiString;
    if (!strings(*value, out.strings)) return std::nullopt;
    return out;
  }
  if (t == "REG_DWORD" || t == "REG_QWORD") {
    auto n = RecordedNumber(*value);
    if (!n || (t == "REG_DWORD" && *n > 0xFFFFFFFFull)) return std::nullopt;
    out.type = t == "REG_DWORD" ? RegistryValue::Type::kDword : RegistryValue::Type::kQword;
    out.number = *n;
    return out;
  }
  if (t == "REG_BINARY") {
    if (!value->is_string()) return std::nullopt;
    auto bytes = FromHexBytes(value->get<std::string>());
    if (!bytes) return std::nullopt;
    out.type = RegistryValue::Type::kBinary;
    out.bytes = *bytes;
    return out;
  }
  return std::nullopt;
}

OrderedJson ValueToJson(const RegistryValue& v) {
  switch (v.type) {
    case RegistryValue::Type::kString:
      return v.text;
    case RegistryValue::Type::kExpandString:
      return OrderedJson{{"type", "REG_EXPAND_SZ"}, {"value", v.text}};
    case RegistryValue::Type::kMultiString:
      return OrderedJson(v.strings);
    case RegistryValue::Type::kDword:
      return v.number;
    case RegistryValue::Type::kQword:
      return OrderedJson{{"type", "REG_QWORD"}, {"value", v.number}};
    case RegistryValue::Type::kBinary:
      return OrderedJson{{"type", "REG_BINARY"}, {"value", ToHexBytes(v.bytes)}};
  }
  return nullptr;
}

// "HKLM\\X" / "HKEY_LOCAL_MACHINE\\X" -> lookup form; nullopt for another root.
std::optional<std::string> KeyLookupFromText(std::string_view full) {
  size_t sep = full.find('\\');
  std::string root = ToLower(full.substr(0, sep));
  std::string_view rest = sep == std::string_view::npos ? std::string_view() : full.substr(sep + 1);
  if (root == "hklm" || root == "hkey_local_machine")
    return RegistryLookupKey(RegistryRoot::kLocalMachine, rest);
  if (root == "hkcu" || root == "hkey_current_user")
    return RegistryLookupKey(RegistryRoot::kCurrentUser, rest);
  return std::nullopt;
}

}  // namespace

std::string RegistryLookupKey(RegistryRoot root, std::string_view path) {
  std::string out = ToLower(ToString(root));
  std::string lower = ToLower(path);
  std::replace(lower.begin(), lower.end(), '/', '\\');
  while (!lower.empty() && lower.back() == '\\') lower.pop_back();
  while (!lower.empty() && lower.front() == '\\') lower.erase(lower.begin());
  if (!lower.empty()) out += "\\" + lower;
  return out;
}

std::string FileLookupKey(std::string_view path) {
  std::string out = ToLower(path);
  std::replace(out.begin(), out.end(), '/', '\\');
  return out;
}

Result<WindowsSystemFacts> ParseRecordedOs(std::string_view text, std::vector<std::string>& problems) {
  auto doc = ParseObject(text, "os.json");
  if (!doc) return doc.error();
  WindowsSystemFacts f;
  if (const OrderedJson* v = Member(*doc, "version")) {
    std::optional<uint32_t> major, minor, build;
    ReadNumber(*v, "major", major, "os.json version", problems);
    ReadNumber(*v, "minor", minor, "os.json version", problems);
    ReadNumber(*v, "build", build, "os.json version", problems);
    if (major && minor && build) f.version = WindowsVersion{*major, *minor, *build};
  }
  if (const OrderedJson* v = Member(*doc, "system_directory")) {
    if (v->is_string()) {
      f.system_directory = v->get<std::string>();
    } else {
      problems.push_back("os.json system_directory is not a string");
    }
  }
  if (const OrderedJson* m = Member(*doc, "memory")) {
    ReadNumber(*m, "total_bytes", f.memory_total_bytes, "os.json memory", problems);
    ReadNumber(*m, "available_bytes", f.memory_available_bytes, "os.json memory", problems);
  }
  if (const OrderedJson* p = Member(*doc, "processors")) {
    ReadNumber(*p, "logical", f.logical_processors, "os.json processors", problems);
    ReadNumber(*p, "cores", f.processor_cores, "os.json processors", problems);
    ReadNumber(*p, "packages", f.processor_packages, "os.json processors", problems);
  }
  if (const OrderedJson* v = Member(*doc, "virtualization")) {
    ReadBool(*v, "firmware_enabled", f.virtualization_firmware_enabled, "os.json virtualization", problems);
    ReadBool(*v, "hypervisor_present", f.hypervisor_present, "os.json virtualization", problems);
  }
  return f;
}

Result<DxgiAdapters> ParseRecordedDxgi(std::string_view text, std::vector<std::string>& problems) {
  auto doc = ParseObject(text, "dxgi.json");
  if (!doc) return doc.error();
  DxgiAdapters out;
  if (const OrderedJson* v = Member(*doc, "available"); v && v->is_boolean()) out.available = v->get<bool>();
  if (const OrderedJson* v = Member(*doc, "error"); v && v->is_string()) out.error = v->get<std::string>();
  const OrderedJson* list = Member(*doc, "adapters");
  if (!list) return out;
  if (!list->is_array()) {
    problems.push_back("dxgi.json adapters is not an array");
    return out;
  }
  size_t i = 0;
  for (const auto& a : *list) {
    std::string where = "dxgi.json adapters[" + std::to_string(i++) + "]";
    if (!a.is_object()) {
      problems.push_back(where + " is not an object");
      continue;
    }
    DxgiAdapterDesc d;
    if (const OrderedJson* v = Member(a, "description"); v && v->is_string())
      d.description = v->get<std::string>();
    std::optional<uint32_t> vendor, device, subsys, revision, flags;
    std::optional<uint64_t> dedicated, dedicated_system, shared, luid;
    size_t before = problems.size();
    ReadNumber(a, "vendor_id", vendor, where, problems);
    ReadNumber(a, "device_id", device, where, problems);
    ReadNumber(a, "subsys_id", subsys, where, problems);
    ReadNumber(a, "revision", revision, where, problems);
    ReadNumber(a, "flags", flags, where, problems);
    ReadNumber(a, "dedicated_video_memory", dedicated, where, problems);
    ReadNumber(a, "dedicated_system_memory", dedicated_system, where, problems);
    ReadNumber(a, "shared_system_memory", shared, where, problems);
    ReadNumber(a, "luid", luid, where, problems);
    if (problems.size() != before || !vendor || !device) {
      if (problems.size() == before) problems.push_back(where + " lacks vendor_id or device_id");
      continue;
    }
    d.vendor_id = *vendor;
    d.device_id = *device;
    d.subsys_id = subsys.value_or(0);
    d.revision = revision.value_or(0);
    d.flags = flags.value_or(0);
    d.dedicated_video_memory = dedicated.value_or(0);
    d.dedicated_system_memory = dedicated_system.value_or(0);
    d.shared_system_memory = shared.value_or(0);
    d.luid = luid.value_or(0);
    out.adapters.push_back(std::move(d));
  }
  return out;
}

Result<RecordedRegistry> ParseRecordedRegistry(std::string_view text, std::vector<std::string>& problems) {
  auto doc = ParseObject(text, "registry.json");
  if (!doc) return doc.error();
  RecordedRegistry out;
  for (auto it = doc->begin(); it != doc->end(); ++it) {
    auto lookup = KeyLookupFromText(it.key());
    if (!lookup) {
      problems.push_back("registry.json key " + it.key() + " does not start with HKLM or HKCU");
      continue;
    }
    if (!it->is_object()) {
      problems.push_back("registry.json key " + it.key() + " is not an object");
      continue;
    }
    RecordedRegistryKey& key = out.keys[*lookup];
    key.path = it.key();
    for (auto v = it->begin(); v != it->end(); ++v) {
      auto value = ValueFromJson(*v);
      if (!value) {
        problems.push_back("registry.json " + it.key() + " value " + v.key() + " has an unknown form");
        continue;
      }
      key.values[ToLower(v.key())] = {v.key(), std::move(*value)};
    }
  }
  return out;
}

Result<std::map<std::string, WindowsFileInfo>> ParseRecordedFiles(std::string_view text,
                                                                  std::vector<std::string>& problems) {
  auto doc = ParseObject(text, "files.json");
  if (!doc) return doc.error();
  std::map<std::string, WindowsFileInfo> out;
  for (auto it = doc->begin(); it != doc->end(); ++it) {
    WindowsFileInfo info;
    if (it->is_object()) {
      if (const OrderedJson* v = Member(*it, "version")) {
        if (v->is_string()) {
          info.version = v->get<std::string>();
        } else {
          problems.push_back("files.json " + it.key() + " version is not a string");
        }
      }
    } else {
      problems.push_back("files.json " + it.key() + " is not an object");
      continue;
    }
    out[FileLookupKey(it.key())] = std::move(info);
  }
  return out;
}

std::string RecordedOsToJson(const WindowsSystemFacts& f) {
  auto opt = [](const auto& v) { return v ? OrderedJson(*v) : OrderedJson(nullptr); };
  OrderedJson version = nullptr;
  if (f.version)
    version =
        OrderedJson{{"major", f.version->major}, {"minor", f.version->minor}, {"build", f.version->build}};
  OrderedJson doc{{"version", version},
                  {"system_directory", f.system_directory},
                  {"memory", OrderedJson{{"total_bytes", opt(f.memory_total_bytes)},
                                         {"available_bytes", opt(f.memory_available_bytes)}}},
                  {"processors", OrderedJson{{"logical", opt(f.logical_processors)},
                                             {"cores", opt(f.processor_cores)},
                                             {"packages", opt(f.processor_packages)}}},
                  {"virtualization", OrderedJson{{"firmware_enabled", opt(f.virtualization_firmware_enabled)},
                                                 {"hypervisor_present", opt(f.hypervisor_present)}}}};
  return doc.dump(2) + "\n";
}

std::string RecordedDxgiToJson(const DxgiAdapters& d) {
  OrderedJson adapters = OrderedJson::array();
  for (const auto& a : d.adapters) {
    adapters.push_back(OrderedJson{{"description", a.description},
                                   {"vendor_id", HexText(a.vendor_id, 4)},
                                   {"device_id", HexText(a.device_id, 4)},
                                   {"subsys_id", HexText(a.subsys_id, 8)},
                                   {"revision", HexText(a.revision, 2)},
                                   {"dedicated_video_memory", a.dedicated_video_memory},
                                   {"dedicated_system_memory", a.dedicated_system_memory},
                                   {"shared_system_memory", a.shared_system_memory},
                                   {"luid", HexText(a.luid, 16)},
                                   {"flags", a.flags}});
  }
  OrderedJson doc{{"available", d.available}, {"error", d.error}, {"adapters", adapters}};
  return doc.dump(2) + "\n";
}

std::string RecordedRegistryToJson(const std::map<std::string, std::map<std::string, RegistryValue>>& keys) {
  OrderedJson doc = OrderedJson::object();
  for (const auto& [path, values] : keys) {
    OrderedJson obj = OrderedJson::object();
    for (const auto& [name, value] : values) obj[name] = ValueToJson(value);
    doc[path] = obj;
  }
  return doc.dump(2) + "\n";
}

std::string RecordedFilesToJson(const std::map<std::string, WindowsFileInfo>& files) {
  OrderedJson doc = OrderedJson::object();
  for (const auto& [path, info] : files) doc[path] = OrderedJson{{"version", info.version}};
  return doc.dump(2) + "\n";
}

}  // namespace gpudoctor
