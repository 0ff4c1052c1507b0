// Reading CDI specifications for the NVIDIA driver version they were generated for (see cdi_specs.h).
#include "probe/linux/cdi_specs.h"

#include <algorithm>
#include <cctype>

namespace gpudoctor {
namespace {

constexpr std::string_view kCdiFolders[] = {"/etc/cdi", "/var/run/cdi"};
constexpr size_t kMaxSpecBytes = 4 << 20;

bool IsSpecFile(std::string_view name) {
  auto ends = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  return ends(".yaml") || ends(".yml") || ends(".json");
}

// The "550.54.15" after `at` (the end of "libcuda.so."): numbers joined by single dots, two dots at least
// (the "libcuda.so.1" link names no driver); "" for anything else ("libcuda.so..55504.15").
std::string VersionAt(std::string_view text, size_t at) {
  if (at >= text.size() || !std::isdigit(static_cast<unsigned char>(text[at]))) return "";
  size_t end = at;
  int dots = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) {
    if (text[end] == '.') ++dots;
    ++end;
  }
  std::string_view v = text.substr(at, end - at);
  while (!v.empty() && v.back() == '.') {
    v.remove_suffix(1);
    --dots;
  }
  if (v.find("..") != std::string_view::npos) return "";
  return dots >= 2 && v.size() <= 32 ? std::string(v) : "";
}

}  // namespace

std::string CdiSpecDriverVersion(std::string_view text) {
  if (text.find("nvidia.com/") == std::string_view::npos) return "";
  for (std::string_view lib : {std::string_view("libcuda.so."), std::string_view("libnvidia-ml.so.")}) {
    for (size_t at = text.find(lib); at != std::string_view::npos; at = text.find(lib, at + 1)) {
      std::string v = VersionAt(text, at + lib.size());
      if (!v.empty()) return v;
    }
  }
  return "";
}

void ProbeCdiSpecs(const ProbeContext& ctx, Snapshot& snap) {
  if (snap.os.wsl || snap.os.container) return;
  const bool nvidia = std::any_of(snap.pci_devices.begin(), snap.pci_devices.end(),
                                  [](const PciDevice& d) { return d.vendor_id == 0x10de; });
  if (!nvidia) return;
  for (std::string_view folder : kCdiFolders) {
    auto names = ctx.fs.ListDir(folder);
    if (!names.ok()) continue;
    for (const std::string& name : *names) {
      if (!IsSpecFile(name)) continue;
      const std::string path = std::string(folder) + "/" + name;
      auto text = ctx.fs.ReadFile(path, kMaxSpecBytes);
      if (!text.ok() || text->find("nvidia.com/") == std::string::npos) continue;
      snap.nvidia.cdi_specs.push_back({path, CdiSpecDriverVersion(*text)});
    }
  }
}

}  // namespace gpudoctor
