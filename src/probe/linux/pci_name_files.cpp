// Line scanners for amdgpu.ids and pci.ids (strict about the format, silent about lines they skip) and
// the name lookup order over them.
#include "probe/linux/pci_name_files.h"

#include <array>

#include "core/strings.h"

namespace gpudoctor {
namespace {

bool IsHexChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Exactly `digits` hex digits at the start of s.
std::optional<uint32_t> FixedHex(std::string_view s, size_t digits) {
  if (s.size() < digits) return std::nullopt;
  for (size_t i = 0; i < digits; ++i)
    if (!IsHexChar(s[i])) return std::nullopt;
  auto v = ParseU64(s.substr(0, digits), 16);
  if (!v) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

// Walks a text line by line without copying it.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}
  bool Next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    return true;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// "XXXX  name" after the given indentation; nullopt when the line has another shape.
std::optional<std::pair<uint32_t, std::string_view>> IdAndName(std::string_view rest) {
  auto id = FixedHex(rest, 4);
  if (!id || rest.size() < 5 || (rest[4] != ' ' && rest[4] != '\t')) return std::nullopt;
  return std::make_pair(*id, Trim(rest.substr(4)));
}

// Where distributions install the files: libdrm (Debian/Fedora), AMD's own packages; pciutils/hwdata.
constexpr std::array<const char*, 2> kAmdgpuIdsPaths = {"/usr/share/libdrm/amdgpu.ids",
                                                        "/opt/amdgpu/share/libdrm/amdgpu.ids"};
constexpr std::array<const char*, 2> kPciIdsPaths = {"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"};

constexpr size_t kMaxAmdgpuIdsBytes = 1 << 20;  // about 20 KB today
constexpr size_t kMaxPciIdsBytes = 8 << 20;     // about 1.5 MB today

}  // namespace

std::optional<AmdgpuIdsEntry> ParseAmdgpuIdsLine(std::string_view line) {
  std::string_view t = Trim(line);
  if (t.empty() || t.front() == '#') return std::nullopt;
  size_t c1 = t.find(',');
  if (c1 == std::string_view::npos) return std::nullopt;
  size_t c2 = t.find(',', c1 + 1);
  if (c2 == std::string_view::npos) return std::nullopt;
  std::string_view dev = Trim(t.substr(0, c1));
  std::string_view rev = Trim(t.substr(c1 + 1, c2 - c1 - 1));
  std::string_view name = Trim(t.substr(c2 + 1));
  if (dev.size() != 4 || rev.size() != 2 || name.empty()) return std::nullopt;
  auto d = FixedHex(dev, 4);
  auto r = FixedHex(rev, 2);
  if (!d || !r) return std::nullopt;
  return AmdgpuIdsEntry{*d, *r, name};
}

std::optional<std::string> FindAmdgpuIdsName(std::string_view file_text, uint32_t device_id,
                                             uint32_t revision) {
  LineCursor cursor(file_text);
  std::string_view line;
  while (cursor.Next(line)) {
    auto e = ParseAmdgpuIdsLine(line);
    if (!e || e->device_id != device_id || e->revision != revision) continue;
    std::string_view name = e->name;
    if (StartsWith(name, "AMD ") && name.size() > 4) name.remove_prefix(4);
    return std::string(name);
  }
  return std::nullopt;
}

std::optional<PciIdsMatch> LookupPciIds(std::string_view file_text, uint32_t vendor_id, uint32_t device_id,
                                        std::optional<uint32_t> subsystem_vendor_id,
                                        std::optional<uint32_t> subsystem_device_id) {
  LineCursor cursor(file_text);
  std::string_view line;
  std::optional<PciIdsMatch> match;
  bool in_device = false;
  while (cursor.Next(line)) {
    if (line.empty() || line.front() == '#') continue;
    if (line.front() != '\t') {
      if (match) break;  // the next vendor (or the class list) ends our block
      auto vendor = IdAndName(line);
      if (vendor && vendor->first == vendor_id) {
        match = PciIdsMatch{};
        match->vendor_name = std::string(vendor->second);
      }
      continue;
    }
    if (!match) continue;
    if (line.size() > 1 && line[1] == '\t') {  // subsystem of the current device
      if (!in_device || !subsystem_vendor_id || !subsystem_device_id) continue;
      std::string_view rest = line.substr(2);
      auto sv = FixedHex(rest, 4);
      if (!sv || rest.size() < 6 || rest[4] != ' ') continue;
      auto sd = IdAndName(rest.substr(5));
      if (*sv == *subsystem_vendor_id && sd && sd->first == *subsystem_device_id)
        match->subsystem_name = std::string(sd->second);
      continue;
    }
    auto dev = IdAndName(line.substr(1));
    if (in_device) break;  // past our device: nothing more to learn
    in_device = dev && dev->first == device_id;
    if (in_device) {
      match->device_name = std::string(dev->second);
      if (!subsystem_vendor_id || !subsystem_device_id) break;
    }
  }
  return match;
}

std::string MarketingNameFromPciIds(std::string_view device_name) {
  size_t close = device_name.rfind(']');
  size_t open = close == std::string_view::npos ? std::string_view::npos : device_name.rfind('[', close);
  if (open != std::string_view::npos && close > open + 1)
    return std::string(Trim(device_name.substr(open + 1, close - open - 1)));
  return std::string(Trim(device_name));
}

const GpuNameResolver::NameFile& GpuNameResolver::Load(NameFile& file,
                                                       std::span<const char* const> candidates,
                                                       size_t max_bytes) {
  if (file.tried) return file;
  file.tried = true;
  for (const char* path : candidates) {
    auto text = reader_.Optional(path, max_bytes);
    if (!text) continue;
    file.path = path;
    file.text = std::move(*text);
    looked_at_.push_back(file.path + " (GPU names)");
    break;
  }
  return file;
}

GpuNameAnswer GpuNameResolver::Resolve(uint32_t vendor_id, uint32_t device_id,
                                       std::optional<uint32_t> revision,
                                       std::optional<uint32_t> subsystem_vendor_id,
                                       std::optional<uint32_t> subsystem_device_id) {
  GpuNameAnswer answer;
  if (vendor_id == 0x1002 && revision) {
    const NameFile& ids = Load(amdgpu_ids_, kAmdgpuIdsPaths, kMaxAmdgpuIdsBytes);
    if (auto name = FindAmdgpuIdsName(ids.text, device_id, *revision)) {
      answer.name = *name;
      answer.source = "amdgpu.ids";
    }
  }
  const NameFile& pci = Load(pci_ids_, kPciIdsPaths, kMaxPciIdsBytes);
  if (auto match = LookupPciIds(pci.text, vendor_id, device_id, subsystem_vendor_id, subsystem_device_id)) {
    answer.vendor_name = match->vendor_name;
    if (answer.name.empty() && !match->device_name.empty()) {
      answer.name = MarketingNameFromPciIds(match->device_name);
      answer.source = "pci.ids";
    }
  }
  return answer;
}

}  // namespace gpudoctor
