// Reads the name and version of an installed distribution from its metadata header or its folder
// name (dist_metadata.h).
#include "probe/common/dist_metadata.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxName = 200;
constexpr size_t kMaxVersion = 100;

bool PlausibleVersion(std::string_view v) {
  if (v.empty() || v.size() > kMaxVersion) return false;
  if (v.front() < '0' || v.front() > '9') return false;
  for (char c : v) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
              c == '+' || c == '-' || c == '_' || c == '!';
    if (!ok) return false;
  }
  return true;
}

bool IsNameChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' ||
         c == '_';
}

bool PlausibleName(std::string_view n) {
  if (n.empty() || n.size() > kMaxName) return false;
  for (char c : n) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

// "torch==2.5.1", "torch (==2.5.1)", "Torch == 2.5.1" -> "2.5.1"; "" for any other requirement.
std::string ExactTorchPin(std::string_view requirement) {
  if (requirement.find(';') != std::string_view::npos) return "";  // conditional: an extra or a platform
  size_t name_end = 0;
  while (name_end < requirement.size() && IsNameChar(requirement[name_end])) ++name_end;
  if (NormalizeDistName(requirement.substr(0, name_end)) != "torch") return "";
  std::string_view spec = Trim(requirement.substr(name_end));
  if (!spec.empty() && spec.front() == '(') {
    if (spec.back() != ')') return "";
    spec = Trim(spec.substr(1, spec.size() - 2));
  }
  if (!StartsWith(spec, "==") || StartsWith(spec, "===")) return "";
  std::string_view version = Trim(spec.substr(2));
  return PlausibleVersion(version) ? std::string(version) : "";  // a ',' or '*' is not plausible
}

}  // namespace

std::optional<DistMetadata> ParseDistMetadata(std::string_view text) {
  DistMetadata out;
  for (std::string_view line : SplitLines(text)) {
    if (Trim(line).empty()) break;                              // end of the header block
    if (line.front() == ' ' || line.front() == '\t') continue;  // a continuation line
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key = ToLower(Trim(line.substr(0, colon)));
    std::string_view value = Trim(line.substr(colon + 1));
    if (key == "name" && out.name.empty() && PlausibleName(value)) out.name = std::string(value);
    if (key == "version" && out.version.empty() && PlausibleVersion(value)) out.version = std::string(value);
    if (key == "requires-dist" && out.torch_pin.empty()) out.torch_pin = ExactTorchPin(value);
  }
  if (out.name.empty() || out.version.empty()) return std::nullopt;
  return out;
}

std::optional<DistMetadata> ParseDistFolderName(std::string_view folder_name) {
  std::string_view stem;
  for (std::string_view ext : {std::string_view(".dist-info"), std::string_view(".egg-info")}) {
    if (EndsWith(folder_name, ext)) stem = folder_name.substr(0, folder_name.size() - ext.size());
  }
  if (stem.empty()) return std::nullopt;
  // The name ends at the first '-' followed by a digit; an egg may append "-py3.11" after the version.
  size_t cut = std::string_view::npos;
  for (size_t i = 0; i + 1 < stem.size(); ++i) {
    if (stem[i] == '-' && stem[i + 1] >= '0' && stem[i + 1] <= '9') {
      cut = i;
      break;
    }
  }
  if (cut == std::string_view::npos || cut == 0) return std::nullopt;
  DistMetadata out;
  out.name = std::string(stem.substr(0, cut));
  std::string_view version = stem.substr(cut + 1);
  if (size_t py = version.find("-py"); py != std::string_view::npos) version = version.substr(0, py);
  if (!PlausibleName(out.name) || !PlausibleVersion(version)) return std::nullopt;
  out.version = std::string(version);
  return out;
}

}  // namespace gpudoctor
