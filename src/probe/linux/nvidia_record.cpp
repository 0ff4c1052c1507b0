// Writes and reads the recorded NVIDIA answers (nvml.json) with nlohmann/json; every exception the
// library can raise stays inside this file and comes out as an error value or a problem line.
#include "probe/linux/nvidia_record.h"

#include <exception>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/json_depth.h"
#include "core/pci_address.h"
#include "core/strings.h"
#include "probe/linux/procfs_parse.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

constexpr size_t kMaxRecordedDevices = 4096;
constexpr size_t kMaxStringChars = 256;

Json OptionalNumber(const std::optional<uint64_t>& v) {
  return v ? Json(*v) : Json(nullptr);
}

std::optional<uint64_t> AsUnsigned(const Json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  return std::nullopt;
}

// Reads an optional unsigned field; null or absent is "not recorded", anything else wrong is a problem.
template <typename T>
std::optional<T> ReadUnsigned(const Json& obj, const char* key, const std::string& where,
                              std::vector<std::string>& problems) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  auto v = AsUnsigned(*it);
  if (!v || *v > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
    problems.push_back(where + std::string(key) + " is not a non-negative integer in range; ignored");
    return std::nullopt;
  }
  return static_cast<T>(*v);
}

std::optional<std::string> ReadString(const Json& obj, const char* key, const std::string& where,
                                      std::vector<std::string>& problems) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) {
    problems.push_back(where + std::string(key) + " is not a string; ignored");
    return std::nullopt;
  }
  return it->get<std::string>().substr(0, kMaxStringChars);
}

std::optional<NvidiaDevice> ReadDevice(const Json& d, size_t position, std::vector<std::string>& problems) {
  std::string where = "devices[" + std::to_string(position) + "].";
  if (!d.is_object()) {
    problems.push_back("devices[" + std::to_string(position) + "] is not an object; skipped");
    return std::nullopt;
  }
  NvidiaDevice dev;
  auto index = ReadUnsigned<uint32_t>(d, "index", where, problems);
  dev.index = index.value_or(static_cast<uint32_t>(position));
  dev.name = ReadString(d, "name", where, problems).value_or("");
  dev.uuid = ReadString(d, "uuid", where, problems).value_or("");
  if (auto pci = ReadString(d, "pci_address", where, problems); pci && !pci->empty()) {
    dev.pci_address = NormalizeNvidiaBusId(*pci);
    if (dev.pci_address.empty())
      problems.push_back(where + "pci_address \"" + *pci + "\" is not a PCI address");
  }
  dev.memory_total_bytes = ReadUnsigned<uint64_t>(d, "memory_total_bytes", where, problems);
  dev.cc_major = ReadUnsigned<uint32_t>(d, "cc_major", where, problems);
  dev.cc_minor = ReadUnsigned<uint32_t>(d, "cc_minor", where, problems);
  return dev;
}

RecordedNvidiaAnswers ReadAnswers(const Json& doc) {
  RecordedNvidiaAnswers out;
  out.driver_version = ReadString(doc, "driver_version", "", out.problems);
  if (out.driver_version && !LooksLikeVersion(*out.driver_version)) {
    out.problems.push_back("driver_version \"" + *out.driver_version + "\" is not a version; ignored");
    out.driver_version.reset();
  }
  out.cuda_driver_version = ReadUnsigned<uint32_t>(doc, "cuda_driver_version", "", out.problems);
  auto devs = doc.find("devices");
  if (devs == doc.end() || devs->is_null()) return out;
  if (!devs->is_array()) {
    out.problems.push_back("devices is not an array; ignored");
    return out;
  }
  for (size_t i = 0; i < devs->size() && i < kMaxRecordedDevices; ++i) {
    if (auto dev = ReadDevice((*devs)[i], i, out.problems)) out.devices.push_back(std::move(*dev));
  }
  return out;
}

}  // namespace

std::string NvidiaAnswersToJson(const NvidiaInfo& info) {
  Json doc = Json::object();
  doc["driver_version"] = info.driver_version ? Json(*info.driver_version) : Json(nullptr);
  doc["cuda_driver_version"] = OptionalNumber(info.cuda_driver_version);
  Json devices = Json::array();
  for (const auto& d : info.devices) {
    Json j = Json::object();
    j["index"] = d.index;
    j["name"] = d.name;
    j["uuid"] = d.uuid;
    j["pci_address"] = d.pci_address.empty() ? Json(nullptr) : Json(d.pci_address);
    j["memory_total_bytes"] = OptionalNumber(d.memory_total_bytes);
    j["cc_major"] = OptionalNumber(d.cc_major);
    j["cc_minor"] = OptionalNumber(d.cc_minor);
    devices.push_back(std::move(j));
  }
  doc["devices"] = std::move(devices);
  // Strings come from the driver: replace invalid UTF-8 instead of throwing.
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<RecordedNvidiaAnswers> ParseNvidiaAnswersJson(std::string_view text) {
  try {
    Json doc = ParseJsonWithinDepth<Json>(text);
    if (doc.is_discarded()) return EnvError("not valid JSON");
    if (!doc.is_object()) return EnvError("the top level is not a JSON object");
    return ReadAnswers(doc);
  } catch (const std::exception& e) {
    return EnvError(std::string("unreadable: ") + e.what());
  }
}

}  // namespace gpudoctor
