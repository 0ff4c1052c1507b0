// Parsers of version.py, pyvenv.cfg and conda's environments.txt (python_text_files.h). Line based,
// bounded: a value longer than a sane one is dropped, never trusted.
#include "probe/common/python_text_files.h"

#include "core/strings.h"
#include "core/windows_path.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxValue = 256;

// `name = 'value'`, `name: Optional[str] = "value"`, `name = None`, `name = True` -> the value ("" for
// None, "True"/"False" for booleans); nullopt when the line does not assign `name` that way.
std::optional<std::string> AssignedValue(std::string_view line, std::string_view name) {
  line = Trim(line);
  if (!StartsWith(line, name)) return std::nullopt;
  std::string_view rest = line.substr(name.size());
  // The name must end here: `cuda_version = ...` is not `cuda`.
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '=' && rest.front() != ':') return std::nullopt;
  size_t eq = rest.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  std::string_view annotation = Trim(rest.substr(0, eq));
  if (!annotation.empty() && annotation.front() != ':') return std::nullopt;
  std::string_view value = Trim(rest.substr(eq + 1));
  for (std::string_view word :
       {std::string_view("None"), std::string_view("True"), std::string_view("False")}) {
    if (value == word || StartsWith(value, std::string(word) + " ") ||
        StartsWith(value, std::string(word) + "#"))
      return word == "None" ? std::string() : std::string(word);
  }
  if (value.size() < 2) return std::nullopt;
  char quote = value.front();
  if (quote != '\'' && quote != '"') return std::nullopt;
  size_t close = value.find(quote, 1);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view inner = value.substr(1, close - 1);
  if (inner.size() > kMaxValue || inner.find('\\') != std::string_view::npos) return std::nullopt;
  return std::string(inner);
}

bool IsQuotedString(const std::string& v) {
  return v != "True" && v != "False";
}

}  // namespace

std::optional<TorchVersionFile> ParseTorchVersionFile(std::string_view text) {
  TorchVersionFile out;
  bool have_version = false;
  for (std::string_view line : SplitLines(text)) {
    if (auto v = AssignedValue(line, "__version__")) {
      if (v->empty() || !IsQuotedString(*v)) continue;
      out.version = *v;
      have_version = true;
    } else if (auto c = AssignedValue(line, "cuda")) {
      if (IsQuotedString(*c)) out.cuda = *c;
    } else if (auto h = AssignedValue(line, "hip")) {
      if (IsQuotedString(*h)) out.hip = *h;
    } else if (auto g = AssignedValue(line, "git_version")) {
      if (IsQuotedString(*g)) out.git_version = *g;
    } else if (auto d = AssignedValue(line, "debug")) {
      if (*d == "True") out.debug = true;
      if (*d == "False") out.debug = false;
    }
  }
  if (!have_version) return std::nullopt;
  return out;
}

std::optional<std::string> PythonVersionFromFolder(std::string_view name) {
  if (!StartsWith(name, "python")) return std::nullopt;
  std::string_view v = name.substr(6);
  auto parts = Split(v, '.');
  if (parts.size() != 2) return std::nullopt;
  for (auto p : parts) {
    if (p.empty() || p.size() > 3 || !ParseU64(p)) return std::nullopt;
  }
  return std::string(v);
}

std::optional<std::string> PythonVersionFromWindowsName(std::string_view name) {
  std::string lower = ToLower(name);
  if (!StartsWith(lower, "python")) return std::nullopt;
  std::string_view rest = std::string_view(lower).substr(6);
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  if (digits < 2 || digits > 4 || rest[0] != '3') return std::nullopt;
  std::string_view suffix = rest.substr(digits);
  for (std::string_view known : {"", ".dll", "._pth", ".zip", "-32", "-arm64", "t"}) {
    if (suffix == known) return "3." + std::string(rest.substr(1, digits - 1));
  }
  return std::nullopt;
}

std::optional<std::string> PythonMajorMinor(std::string_view version) {
  version = Trim(version);
  auto parts = Split(version, '.');
  if (parts.size() < 2) return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    if (parts[i].empty() || parts[i].size() > 3 || !ParseU64(parts[i])) return std::nullopt;
  }
  return std::string(parts[0]) + "." + std::string(parts[1]);
}

PyvenvConfig ParsePyvenvConfig(std::string_view text) {
  PyvenvConfig out;
  std::string version, version_info, python;
  for (std::string_view line : SplitLines(text)) {
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key = ToLower(Trim(line.substr(0, eq)));
    std::string_view value = Trim(line.substr(eq + 1));
    if (value.size() > 4 * kMaxValue) continue;
    if (key == "home") out.home = std::string(value);
    if (key == "version") version = std::string(value);
    if (key == "version_info") version_info = std::string(value);
    if (key == "python") python = std::string(value);
    if (key == "include-system-site-packages") out.include_system_site_packages = ToLower(value) == "true";
    if (key == "prompt") out.prompt = std::string(value);
  }
  for (const std::string& v : {version, version_info, python}) {
    if (auto mm = PythonMajorMinor(v)) {
      out.python_version = *mm;
      break;
    }
  }
  return out;
}

std::vector<std::string> ParseCondaEnvironments(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view line : SplitLines(text)) {
    line = Trim(line);
    if (line.empty() || line.size() > 4096) continue;
    if (line.front() != '/' && !IsWindowsAbsolutePath(line)) continue;
    out.emplace_back(line);
  }
  return out;
}

}  // namespace gpudoctor
