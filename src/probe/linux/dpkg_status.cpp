// Reading the dpkg status file (see dpkg_status.h).
#include "probe/linux/dpkg_status.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

// Whether `line` is the field "Field: value"; then `value` is its trimmed value.
bool FieldValue(std::string_view line, std::string_view field, std::string_view& value) {
  if (line.size() <= field.size() || !StartsWith(line, field) || line[field.size()] != ':') return false;
  value = Trim(line.substr(field.size() + 1));
  return true;
}

}  // namespace

std::vector<DpkgPackage> InstalledDpkgPackages(std::string_view status_text) {
  std::vector<DpkgPackage> out;
  DpkgPackage current;
  bool installed = false;
  auto finish = [&] {
    if (installed && !current.name.empty() && !current.version.empty()) out.push_back(current);
    current = DpkgPackage{};
    installed = false;
  };
  for (std::string_view line : SplitLines(status_text)) {
    if (Trim(line).empty()) {
      finish();
      continue;
    }
    if (line.front() == ' ' || line.front() == '\t')
      continue;  // a continuation line (Description, Conffiles)
    std::string_view value;
    if (FieldValue(line, "Package", value)) {
      current.name = std::string(value);
    } else if (FieldValue(line, "Version", value)) {
      current.version = std::string(value);
    } else if (FieldValue(line, "Status", value)) {
      installed = value == "install ok installed";
    }
  }
  finish();
  return out;
}

std::string DebianUpstreamVersion(std::string_view version) {
  version = Trim(version);
  if (size_t colon = version.find(':'); colon != std::string_view::npos) version.remove_prefix(colon + 1);
  if (size_t dash = version.rfind('-'); dash != std::string_view::npos) version = version.substr(0, dash);
  return std::string(version);
}

}  // namespace gpudoctor
