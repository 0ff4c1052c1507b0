// The worker request's codec (see worker_request.h).
#include "worker/worker_request.h"

#include "core/strings.h"
#include "worker/worker_device.h"

namespace gpudoctor {
namespace {

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

// "key=value" split at the first '='; nullopt when there is none or the key is empty.
std::optional<std::pair<std::string, std::string>> KeyValue(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return std::nullopt;
  return std::make_pair(text.substr(0, eq), text.substr(eq + 1));
}

Status ReadOption(WorkerRequest& r, const std::string& key, const std::string& value) {
  if (key == "--backend") {
    auto kind = BackendKindFromString(value);
    if (!kind) return UserError("worker: unknown backend " + value);
    r.backend = *kind;
  } else if (key == "--device") {
    if (value.empty() || !IsWorkerDeviceRef(value))
      return UserError("worker: bad --device " + value +
                       " (expected a PCI address such as 0000:17:00.0 or an index)");
    r.device = value;
  } else if (key == "--items") {
    r.items.clear();
    for (auto item : Split(value, ',')) {
      if (Trim(item).empty()) return UserError("worker: empty item in --items " + value);
      r.items.emplace_back(Trim(item));
    }
  } else if (key == "--limit") {
    auto seconds = ParseU64(value);
    if (!seconds || *seconds == 0 || *seconds > 86400) return UserError("worker: bad --limit " + value);
    r.limit = std::chrono::seconds(static_cast<long>(*seconds));
  } else if (key == "--fake-script") {
    r.fake_script_path = value;
  } else if (key == "--arch-hint" || key == "--set") {
    auto kv = KeyValue(value);
    if (!kv) return UserError("worker: bad " + key + " " + value + " (expected NAME=VALUE)");
    (key == "--arch-hint" ? r.arch_by_pci : r.settings)[kv->first] = kv->second;
  } else {
    return UserError("worker: unknown option " + key);
  }
  return Ok{};
}

}  // namespace

std::vector<std::string> EncodeWorkerRequest(const WorkerRequest& r) {
  std::vector<std::string> out = {kWorkerModeArg, r.job, "--backend", ToString(r.backend)};
  if (!r.device.empty()) out.insert(out.end(), {"--device", r.device});
  if (!r.items.empty()) out.insert(out.end(), {"--items", Joined(r.items)});
  if (r.limit) out.insert(out.end(), {"--limit", std::to_string(r.limit->count())});
  if (!r.fake_script_path.empty()) out.insert(out.end(), {"--fake-script", r.fake_script_path});
  for (const auto& [pci, arch] : r.arch_by_pci) out.insert(out.end(), {"--arch-hint", pci + "=" + arch});
  for (const auto& [name, value] : r.settings) out.insert(out.end(), {"--set", name + "=" + value});
  return out;
}

Result<WorkerRequest> DecodeWorkerRequest(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[0] != kWorkerModeArg || args[1].empty() || args[1].front() == '-')
    return UserError(
        "worker: usage: __worker JOB [--backend B] [--device PCI|N] [--items A,B] [--set NAME=VALUE]");
  WorkerRequest r;
  r.job = args[1];
  for (size_t i = 2; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return UserError("worker: " + args[i] + " needs a value");
    if (auto s = ReadOption(r, args[i], args[i + 1]); !s) return s.error();
  }
  return r;
}

WorkerRequest MakeWorkerRequest(const std::string& job, const WorkerTarget& target,
                                std::vector<std::string> items, std::map<std::string, std::string> settings) {
  WorkerRequest w;
  w.job = job;
  w.backend = target.backend;
  w.device = target.device;
  w.items = std::move(items);
  w.limit = target.limit;
  w.fake_script_path = target.fake_script_path;
  w.arch_by_pci = target.arch_by_pci;
  w.settings = std::move(settings);
  return w;
}

WorkerTarget TargetOf(const WorkerRequest& w) {
  return WorkerTarget{w.backend, w.device, w.limit, w.fake_script_path, w.arch_by_pci};
}

Result<double> SettingNumber(const WorkerRequest& r, const std::string& name, double fallback) {
  auto it = r.settings.find(name);
  if (it == r.settings.end()) return fallback;
  auto value = ParseDouble(it->second);
  if (!value || *value < 0) return UserError("worker: bad setting " + name + "=" + it->second);
  return *value;
}

Result<uint64_t> SettingCount(const WorkerRequest& r, const std::string& name, uint64_t fallback,
                              uint64_t max) {
  auto it = r.settings.find(name);
  if (it == r.settings.end()) return fallback;
  auto value = ParseU64(it->second);
  if (!value || *value > max) return UserError("worker: bad setting " + name + "=" + it->second);
  return *value;
}

std::string SettingText(const WorkerRequest& r, const std::string& name, const std::string& fallback) {
  auto it = r.settings.find(name);
  return it == r.settings.end() ? fallback : it->second;
}

}  // namespace gpudoctor
