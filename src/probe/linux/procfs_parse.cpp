// Parsers of the Linux text files behind the OS and NVIDIA probes. Pure functions of their text:
// they never read files, never throw, and bound everything they keep.
#include "probe/linux/procfs_parse.h"

#include <set>
#include <utility>
#include <vector>

#include "core/strings.h"

namespace gpudoctor {
namespace {

// Values kept from outside files are cut to this many characters.
constexpr size_t kMaxValueChars = 512;

std::string Bounded(std::string_view s) {
  return std::string(s.substr(0, kMaxValueChars));
}

bool IsOsReleaseKey(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

// "key<TAB>: value" as /proc/cpuinfo and /proc/meminfo write them.
bool SplitKeyValue(std::string_view line, char sep, std::string_view& key, std::string_view& value) {
  size_t pos = line.find(sep);
  if (pos == std::string_view::npos) return false;
  key = Trim(line.substr(0, pos));
  value = Trim(line.substr(pos + 1));
  return !key.empty();
}

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

uint32_t ClampToU32(size_t n) {
  return n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n);
}

}  // namespace

std::string UnquoteOsReleaseValue(std::string_view raw) {
  raw = Trim(raw);
  if (raw.empty()) return {};
  std::string out;
  if (raw.front() == '\'') {
    size_t end = raw.find('\'', 1);
    return Bounded(raw.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1));
  }
  if (raw.front() != '"') return Bounded(raw);
  // Double quotes: backslash escapes $, ", \ and ` as a shell would.
  for (size_t i = 1; i < raw.size() && out.size() < kMaxValueChars; ++i) {
    char c = raw[i];
    if (c == '"') break;
    if (c == '\\' && i + 1 < raw.size()) {
      char next = raw[i + 1];
      if (next == '$' || next == '"' || next == '\\' || next == '`') {
        out += next;
        ++i;
        continue;
      }
    }
    out += c;
  }
  return out;
}

Result<OsRelease> ParseOsRelease(std::string_view text) {
  OsRelease out;
  std::string name;
  bool any = false;
  for (auto line : SplitLines(text)) {
    line = Trim(line);
    if (line.empty() || line.front() == '#') continue;
    std::string_view key, value;
    if (!SplitKeyValue(line, '=', key, value) || !IsOsReleaseKey(key)) continue;
    if (key == "ID") {
      out.id = UnquoteOsReleaseValue(value);
      any = true;
    } else if (key == "PRETTY_NAME") {
      out.pretty_name = UnquoteOsReleaseValue(value);
      any = true;
    } else if (key == "NAME") {
      name = UnquoteOsReleaseValue(value);
      any = true;
    } else if (key == "VERSION_ID") {
      out.version_id = UnquoteOsReleaseValue(value);
    } else if (key == "ID_LIKE") {
      const std::string like = UnquoteOsReleaseValue(value);
      for (std::string_view word : Split(like, ' '))
        if (!Trim(word).empty()) out.id_like.emplace_back(Trim(word));
    }
  }
  if (!any) return EnvError("no ID, NAME or PRETTY_NAME line found");
  if (out.pretty_name.empty()) out.pretty_name = name;
  return out;
}

Result<CpuSummary> ParseCpuInfo(std::string_view text) {
  CpuSummary out;
  std::string fallback_model;
  std::set<std::pair<uint64_t, uint64_t>> cores;
  std::set<uint64_t> packages;
  bool topology_complete = true;
  // The processor entry being read: its physical id and core id, when given.
  bool in_processor = false;
  std::optional<uint64_t> physical_id, core_id;
  auto finish_processor = [&] {
    if (!in_processor) return;
    if (physical_id && core_id) {
      cores.insert({*physical_id, *core_id});
      packages.insert(*physical_id);
    } else {
      topology_complete = false;
    }
    physical_id.reset();
    core_id.reset();
  };

  for (auto line : SplitLines(text)) {
    std::string_view key, value;
    if (!SplitKeyValue(line, ':', key, value)) continue;
    if (key == "processor") {
      if (!ParseU64(value)) continue;
      finish_processor();
      in_processor = true;
      ++out.logical_cores;
    } else if (key == "model name") {
      if (out.model.empty()) out.model = Bounded(value);
    } else if (key == "Hardware" || key == "cpu model" || key == "Processor") {
      if (fallback_model.empty()) fallback_model = Bounded(value);
    } else if (key == "physical id") {
      physical_id = ParseU64(value);
    } else if (key == "core id") {
      core_id = ParseU64(value);
    }
  }
  finish_processor();
  if (out.logical_cores == 0) return EnvError("no \"processor\" entries found");
  if (out.model.empty()) out.model = fallback_model;
  if (topology_complete && !cores.empty()) {
    out.physical_cores = ClampToU32(cores.size());
    out.sockets = ClampToU32(packages.size());
  }
  return out;
}

Result<MemSummary> ParseMemInfo(std::string_view text) {
  std::optional<uint64_t> total, available;
  bool total_malformed = false;
  for (auto line : SplitLines(text)) {
    std::string_view key, value;
    if (!SplitKeyValue(line, ':', key, value)) continue;
    if (key != "MemTotal" && key != "MemAvailable") continue;
    std::optional<uint64_t> bytes;
    if (EndsWith(value, "kB")) {
      auto kb = ParseU64(value.substr(0, value.size() - 2));
      if (kb && *kb <= UINT64_MAX / 1024) bytes = *kb * 1024;
    }
    if (key == "MemTotal") {
      if (!bytes) total_malformed = true;
      if (!total) total = bytes;
    } else if (!available) {
      available = bytes;
    }
  }
  if (!total) {
    return EnvError(total_malformed ? "MemTotal is not a number of kB" : "no MemTotal line found");
  }
  MemSummary out;
  out.total_bytes = *total;
  out.available_bytes = available;
  return out;
}

Result<std::string> ParseNvidiaProcVersion(std::string_view text) {
  for (auto line : SplitLines(text)) {
    size_t pos = line.find("NVRM version:");
    if (pos == std::string_view::npos) continue;
    for (auto word : Words(line.substr(pos + 13))) {
      if (LooksLikeVersion(word) && word.find('.') != std::string_view::npos) return std::string(word);
    }
    return EnvError("the NVRM version line holds no version number");
  }
  return EnvError("no \"NVRM version:\" line found");
}

NvidiaKernelModule NvidiaKernelModuleFromProcVersion(std::string_view text) {
  for (auto line : SplitLines(text)) {
    size_t pos = line.find("NVRM version:");
    if (pos == std::string_view::npos) continue;
    // The words before the version number: "NVIDIA UNIX Open Kernel Module for x86_64".
    std::string_view rest = line.substr(pos + 13);
    size_t module = rest.find("Kernel Module");
    if (module == std::string_view::npos) return NvidiaKernelModule::kUnknown;
    for (auto word : Words(rest.substr(0, module))) {
      if (word == "Open") return NvidiaKernelModule::kOpen;
    }
    return NvidiaKernelModule::kProprietary;
  }
  return NvidiaKernelModule::kUnknown;
}

bool KernelVersionTextMentionsWsl(std::string_view proc_version) {
  std::string lower = ToLower(proc_version);
  return lower.find("microsoft") != std::string::npos || lower.find("wsl") != std::string::npos;
}

std::optional<std::string> KernelReleaseFromVersionText(std::string_view proc_version) {
  auto lines = SplitLines(proc_version);
  if (lines.empty()) return std::nullopt;
  auto words = Words(lines.front());
  if (words.size() < 3 || words[0] != "Linux" || words[1] != "version") return std::nullopt;
  return Bounded(words[2]);
}

std::optional<std::string> ContainerFromCgroup(std::string_view cgroup_text) {
  std::string lower = ToLower(cgroup_text);
  // Kubernetes first: its pods often run under docker or containerd too.
  if (lower.find("kubepods") != std::string::npos) return "kubernetes";
  if (lower.find("libpod") != std::string::npos) return "podman";
  if (lower.find("docker") != std::string::npos) return "docker";
  if (lower.find("lxc") != std::string::npos) return "lxc";
  return std::nullopt;
}

bool LooksLikeVersion(std::string_view s) {
  if (s.empty() || s.size() > 64 || s.front() < '0' || s.front() > '9') return false;
  for (char c : s) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
              c == '-' || c == '+' || c == '_' || c == '~';
    if (!ok) return false;
  }
  return true;
}

}  // namespace gpudoctor
