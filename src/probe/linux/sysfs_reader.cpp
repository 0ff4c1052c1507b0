// One policy for reading sysfs files: silent when absent, one warning when broken, never a throw.
#include "probe/linux/sysfs_reader.h"

#include "core/strings.h"

namespace gpudoctor {
std::string QuoteForWarning(std::string_view text) {
  text = Trim(text);
  constexpr size_t kMax = 40;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kMax; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    out += (c < 0x20 || c >= 0x7f) ? '?' : static_cast<char>(c);
  }
  if (text.size() > kMax) out += "...";
  out += "'";
  return out;
}

void SysfsReader::Warn(std::string_view path, std::string_view what) const {
  std::string line(path);
  line += ": ";
  line += what;
  warnings_.push_back(std::move(line));
}

std::optional<std::string> SysfsReader::Read(std::string_view path, bool required, size_t max_bytes) const {
  auto text = fs_.ReadFile(path, max_bytes);
  if (text.ok()) return std::move(text).value();
  auto stat = fs_.Stat(path);
  if (stat.ok()) {
    Warn(path,
         stat->is_dir ? "a folder where a file was expected" : "unreadable (" + text.error().message + ")");
  } else if (fs_.ReadLink(path).ok()) {
    Warn(path, "a dangling or looping symbolic link");
  } else if (auto broken = BrokenAncestor(path)) {
    Warn(*broken, "a dangling or looping symbolic link");
  } else if (required) {
    Warn(path, "missing");
  }
  return std::nullopt;
}

std::optional<std::string> SysfsReader::BrokenAncestor(std::string_view path) const {
  std::string dir(path);
  while (true) {
    size_t slash = dir.find_last_of('/');
    if (slash == std::string::npos || slash == 0) return std::nullopt;
    dir.resize(slash);
    if (fs_.Stat(dir).ok()) return std::nullopt;  // the first existing ancestor: nothing broken above
    if (fs_.ReadLink(dir).ok()) return dir;
  }
}

std::optional<std::string> SysfsReader::Optional(std::string_view path, size_t max_bytes) const {
  return Read(path, false, max_bytes);
}
std::optional<std::string> SysfsReader::Required(std::string_view path) const {
  return Read(path, true, kMaxSysfsFileBytes);
}

std::optional<uint64_t> SysfsReader::Hex(std::string_view path, bool required) const {
  auto text = Read(path, required, kMaxSysfsFileBytes);
  if (!text) return std::nullopt;
  if (Trim(*text).empty()) {
    Warn(path, "empty");
    return std::nullopt;
  }
  auto v = ParseHex(*text);
  if (!v) Warn(path, "not a hex number (" + QuoteForWarning(*text) + ")");
  return v;
}

std::optional<uint64_t> SysfsReader::Decimal(std::string_view path, bool required) const {
  auto text = Read(path, required, kMaxSysfsFileBytes);
  if (!text) return std::nullopt;
  if (Trim(*text).empty()) {
    Warn(path, "empty");
    return std::nullopt;
  }
  auto v = ParseU64(*text);
  if (!v) Warn(path, "not a decimal number (" + QuoteForWarning(*text) + ")");
  return v;
}

std::optional<std::vector<std::string>> SysfsReader::List(std::string_view path) const {
  auto names = fs_.ListDir(path);
  if (names.ok()) return std::move(names).value();
  auto stat = fs_.Stat(path);
  if (stat.ok()) {
    Warn(path, stat->is_dir ? "unreadable folder (" + names.error().message + ")"
                            : "a file where a folder was expected");
  } else if (fs_.ReadLink(path).ok()) {
    Warn(path, "a dangling or looping symbolic link");
  } else if (auto broken = BrokenAncestor(path)) {
    Warn(*broken, "a dangling or looping symbolic link");
  }
  return std::nullopt;
}

}  // namespace gpudoctor
