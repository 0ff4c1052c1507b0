// Setting and restoring an AMD GPU's forced performance level (tune_perf_level.h).
#include "tune/tune_perf_level.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/json_depth.h"
#include "core/strings.h"
#include "platform/user_file.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

std::string Under(const std::string& root, const std::string& machine_path) {
  std::string r = root;
  while (r.size() > 1 && r.back() == '/') r.pop_back();
  return r == "/" ? machine_path : r + machine_path;
}

// A sysfs value or the record, trimmed; the callers say what a missing one means.
Result<std::string> ReadSmall(const std::string& path) {
  auto text = ReadUserFile(path, 1u << 20);
  if (!text) return text.error();
  return std::string(Trim(*text));
}

Status WriteValue(const std::string& path, const std::string& value) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return EnvError("cannot open " + path + " for writing", "run as root (sudo gpudoctor tune ...)");
  out << value << "\n";
  out.flush();
  if (!out) return EnvError("the kernel refused \"" + value + "\" in " + path);
  return Ok{};
}

std::string LevelPath(const std::string& pci_address) {
  return "/sys/bus/pci/devices/" + pci_address + "/power_dpm_force_performance_level";
}

// Applies one visible-devices variable to `gpus` (indices into it, in the variable's order).
Result<std::vector<std::string>> ApplyVisible(const std::vector<std::string>& gpus, const Environment& env,
                                              const char* name) {
  auto value = env.Get(name);
  if (!value) return gpus;
  std::vector<std::string> picked;
  for (const auto& entry : Split(*value, ',')) {
    std::string_view e = Trim(entry);
    if (StartsWith(e, "GPU-"))
      return UserError(
          std::string(name) + "=" + *value + " names a GPU by UUID, which --perf-level cannot follow",
          "give the GPU's index in " + std::string(name) + " instead");
    auto index = ParseU64(e);
    if (!index || *index >= gpus.size()) break;  // the runtimes stop at the first entry they cannot use
    picked.push_back(gpus[*index]);
  }
  return picked;
}

}  // namespace

Result<std::string> VisibleAmdGpu(const std::vector<std::string>& amd_gpus, uint64_t device,
                                  const Environment& env) {
  auto rocr = ApplyVisible(amd_gpus, env, "ROCR_VISIBLE_DEVICES");
  if (!rocr) return rocr.error();
  const char* hip = env.Has("HIP_VISIBLE_DEVICES") ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES";
  auto visible = ApplyVisible(*rocr, env, hip);
  if (!visible) return visible.error();
  if (device >= visible->size()) {
    std::string why = std::to_string(visible->size()) + " AMD GPU(s) visible";
    for (const char* name : {"ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"})
      if (auto v = env.Get(name)) why += ", " + std::string(name) + "=" + *v;
    return UserError("--perf-level: no AMD GPU number " + std::to_string(device) + " (" + why + ")",
                     "the performance level is an amdgpu setting; --device numbers the GPUs torch sees");
  }
  return (*visible)[device];
}

Result<PerfLevelChange> ApplyPerfLevel(const std::string& root, const std::string& pci_address,
                                       const std::string& level) {
  const std::string state = Under(root, kPerfLevelStatePath);
  std::error_code ec;
  if (fs::exists(state, ec))
    return UserError(
        "a performance level set earlier is still recorded in " + std::string(kPerfLevelStatePath),
        "run `gpudoctor tune --restore` first");
  PerfLevelChange c;
  c.pci_address = pci_address;
  c.path = LevelPath(pci_address);
  auto previous = ReadSmall(Under(root, c.path));
  if (!previous)
    return EnvError("GPU " + pci_address + " has no " + c.path,
                    "the performance level is an amdgpu setting: AMD GPUs only");
  c.previous = *previous;
  c.now = level;
  // The record first: if the write then fails, --restore puts back what was there.
  fs::create_directories(fs::path(state).parent_path(), ec);
  nlohmann::json record = {
      {"pci_address", c.pci_address}, {"path", c.path}, {"previous", c.previous}, {"set", level}};
  {
    std::ofstream out(state, std::ios::binary | std::ios::trunc);
    if (!out) return EnvError("cannot write the record " + state);
    out << record.dump(2) << "\n";
    if (!out.flush()) return EnvError("cannot write the record " + state);
  }
  if (auto s = WriteValue(Under(root, c.path), level); !s) {
    fs::remove(state, ec);
    return s.error();
  }
  return c;
}

Result<PerfLevelChange> RestorePerfLevel(const std::string& root) {
  const std::string state = Under(root, kPerfLevelStatePath);
  auto text = ReadSmall(state);
  if (!text)
    return UserError("nothing to restore: no record at " + std::string(kPerfLevelStatePath),
                     "`gpudoctor tune --apply FILE --perf-level` makes one");
  auto j = ParseJsonWithinDepth<nlohmann::json>(*text);
  if (j.is_discarded() || !j.is_object() || !j.contains("path") || !j["path"].is_string() ||
      !j.contains("previous") || !j["previous"].is_string())
    return UserError(
        "the record " + std::string(kPerfLevelStatePath) + " is damaged",
        "set the level by hand (echo auto > .../power_dpm_force_performance_level) and remove it");
  PerfLevelChange c;
  c.path = j["path"].get<std::string>();
  c.previous = ReadSmall(Under(root, c.path)).value_or("");
  c.now = j["previous"].get<std::string>();
  if (j.contains("pci_address") && j["pci_address"].is_string())
    c.pci_address = j["pci_address"].get<std::string>();
  if (!StartsWith(c.path, "/sys/") || c.path.find("..") != std::string::npos ||
      !EndsWith(c.path, "/power_dpm_force_performance_level"))
    return UserError("the record " + std::string(kPerfLevelStatePath) +
                     " names an unexpected file: " + c.path);
  if (auto s = WriteValue(Under(root, c.path), c.now); !s) return s.error();
  std::error_code ec;
  fs::remove(state, ec);
  return c;
}

}  // namespace gpudoctor
