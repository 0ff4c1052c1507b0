// Reads the pins out of requirements files, pyproject.toml, uv.lock, poetry.lock and environment.yml
// (project_pins.h). Line by line, as the files are written by hand or by their tools: no general TOML or
// YAML reader is needed for the few shapes that pin a package, and a line number comes with every pin.
// Anything it does not understand is skipped (a warning for a requirement line that does not parse).
#include "probe/common/project_pins.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr const char* kCondaChannelUrl = "https://conda.anaconda.org/";

bool NameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

std::string Lower(std::string_view s) {
  return ToLower(s);
}

// "%2B" -> "+" (wheel URLs escape the local version's '+').
std::string UrlDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      if (auto v = ParseHex(s.substr(i + 1, 2))) {
        out += static_cast<char>(*v);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// A wheel's URL or path alone: "https://download.pytorch.org/whl/cu118/torch-2.0.0%2Bcu118-cp310-...whl".
std::optional<Requirement> FromWheelName(std::string_view text) {
  std::string_view s = text.substr(0, text.find_first_of("#?"));
  if (!EndsWith(Lower(s), ".whl")) return std::nullopt;
  size_t slash = s.find_last_of('/');
  std::string file = UrlDecode(slash == std::string_view::npos ? s : s.substr(slash + 1));
  auto parts = Split(file, '-');
  if (parts.size() < 3 || parts[0].empty() || parts[1].empty()) return std::nullopt;
  if (!std::isalnum(static_cast<unsigned char>(parts[0][0])) ||
      !std::all_of(parts[0].begin(), parts[0].end(), NameChar))
    return std::nullopt;  // not a wheel's name: "{distribution}-{version}-..."
  return Requirement{NormalizeDistName(parts[0]), "==" + std::string(parts[1]), ""};
}

// Removes a comment: '#' at the start or after white space (pip's rule; a URL's "#sha256=" stays).
std::string_view StripComment(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1]))))
      return Trim(line.substr(0, i));
  }
  return Trim(line);
}

std::string Unquote(std::string_view s) {
  s = Trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    s = s.substr(1, s.size() - 2);
  return std::string(s);
}

bool Wanted(const std::vector<std::string>& wanted, const std::string& package) {
  return std::find(wanted.begin(), wanted.end(), package) != wanted.end();
}

ProjectPin MakePin(std::string_view path, size_t line, std::string_view text, Requirement req) {
  ProjectPin p;
  p.file = std::string(path);
  p.line = static_cast<uint32_t>(line);
  p.text = std::string(Trim(text));
  p.package = std::move(req.package);
  p.spec = std::move(req.spec);
  p.marker = std::move(req.marker);
  return p;
}

std::string Where(std::string_view path, size_t line) {
  return std::string(path) + ":" + std::to_string(line);
}

// ---- requirements files ----

struct PipOptions {
  std::string index_url, extra_index_url, find_links;
  std::string Index() const {
    if (!index_url.empty()) return index_url;
    return extra_index_url.empty() ? find_links : extra_index_url;
  }
};

// An option line ("--index-url URL", "-i URL", "--extra-index-url=URL", "-r other.txt"). Returns false
// when the line is no option.
bool ReadOption(std::string_view line, PipOptions& opts, std::vector<std::string>& includes) {
  if (line.empty() || line.front() != '-') return false;
  size_t cut = line.find_first_of(" \t=");
  std::string name(line.substr(0, cut));
  std::string value = cut == std::string_view::npos ? "" : Unquote(Trim(line.substr(cut + 1)));
  if (name == "--index-url" || name == "-i") {
    if (opts.index_url.empty()) opts.index_url = value;
  } else if (name == "--extra-index-url") {
    if (opts.extra_index_url.empty()) opts.extra_index_url = value;
  } else if (name == "--find-links" || name == "-f") {
    if (opts.find_links.empty()) opts.find_links = value;
  } else if (name == "-r" || name == "--requirement" || name == "-c" || name == "--constraint") {
    if (!value.empty()) includes.push_back(value);
  }
  return true;
}

// Pins of one requirements-style list; `lines` are (line number, text) pairs, continuations joined.
void ReadRequirementLines(std::string_view path, const std::vector<std::pair<size_t, std::string>>& lines,
                          const std::vector<std::string>& wanted, PinFileContents& out) {
  PipOptions opts;
  const size_t first = out.pins.size();
  for (const auto& [number, raw] : lines) {
    std::string_view line = StripComment(raw);
    if (line.empty() || ReadOption(line, opts, out.includes)) continue;
    auto req = ParseRequirement(line);
    if (!req) {
      out.warnings.push_back(Where(path, number) + ": not a requirement: " + ClipLine(line, 80));
      continue;
    }
    if (Wanted(wanted, req->package)) out.pins.push_back(MakePin(path, number, line, std::move(*req)));
  }
  // pip applies a file's index options to every requirement in it, wherever they stand.
  for (size_t i = first; i < out.pins.size(); ++i)
    if (out.pins[i].index_url.empty()) out.pins[i].index_url = opts.Index();
}

void ParseRequirements(std::string_view path, std::string_view text, const std::vector<std::string>& wanted,
                       PinFileContents& out) {
  std::vector<std::pair<size_t, std::string>> lines;
  std::string pending;
  size_t start = 0, number = 0;
  for (auto line : SplitLines(text)) {
    ++number;
    if (pending.empty()) start = number;
    std::string_view t = Trim(line);
    if (!t.empty() && t.back() == '\\') {
      pending += std::string(t.substr(0, t.size() - 1)) + " ";
      continue;
    }
    lines.emplace_back(start, pending + std::string(line));
    pending.clear();
  }
  if (!pending.empty()) lines.emplace_back(start, pending);
  ReadRequirementLines(path, lines, wanted, out);
}

// ---- conda environment.yml ----

// conda's names for torch's builds: pytorch itself, and the packages that choose its variant.
std::string CondaPackage(const std::string& name) {
  if (name == "pytorch" || name == "pytorch-cuda" || name == "pytorch-gpu" || name == "pytorch-cpu" ||
      name == "cpuonly" || name == "pytorch-mutex")
    return "torch";
  return name;
}

size_t Indent(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

void ParseConda(std::string_view path, std::string_view text, const std::vector<std::string>& wanted,
                PinFileContents& out) {
  std::string section;
  std::vector<std::string> channels;
  std::vector<std::pair<size_t, std::string>> pip_lines;
  size_t pip_indent = 0;
  bool in_pip = false;
  size_t number = 0;
  const size_t first = out.pins.size();
  for (auto raw : SplitLines(text)) {
    ++number;
    std::string_view line = StripComment(raw);
    if (line.empty()) continue;
    size_t indent = Indent(raw);
    if (indent == 0 && line.front() != '-') {
      section = std::string(Trim(line.substr(0, line.find(':'))));
      in_pip = false;
      continue;
    }
    if (in_pip && indent > pip_indent) {
      if (line.front() == '-') pip_lines.emplace_back(number, Unquote(line.substr(1)));
      continue;
    }
    in_pip = false;
    if (line.front() != '-') continue;
    std::string item = Unquote(line.substr(1));
    if (section == "channels") {
      channels.push_back(item);
    } else if (section == "dependencies") {
      if (item == "pip:" || StartsWith(item, "pip:")) {
        in_pip = true;
        pip_indent = indent;
        continue;
      }
      std::string channel;
      if (size_t colons = item.find("::"); colons != std::string::npos) {
        channel = item.substr(0, colons);
        item = item.substr(colons + 2);
      }
      size_t end = 0;
      while (end < item.size() && NameChar(item[end])) ++end;
      const std::string conda_name = NormalizeDistName(item.substr(0, end));
      const std::string name = CondaPackage(conda_name);
      if (end == 0 || !Wanted(wanted, name)) continue;
      // A package that selects torch's build ("cpuonly", "pytorch-cuda=12.1") is the spec itself.
      std::string spec = conda_name == name || conda_name == "pytorch"
                             ? std::string(Trim(std::string_view(item).substr(end)))
                             : item;
      ProjectPin pin = MakePin(path, number, line, Requirement{name, spec, ""});
      if (!channel.empty()) pin.index_url = kCondaChannelUrl + channel;
      out.pins.push_back(std::move(pin));
    }
  }
  // The pytorch channel, when listed, is where conda takes torch from.
  const bool pytorch_channel = std::find(channels.begin(), channels.end(), "pytorch") != channels.end();
  for (size_t i = first; i < out.pins.size(); ++i)
    if (out.pins[i].index_url.empty() && pytorch_channel)
      out.pins[i].index_url = kCondaChannelUrl + std::string("pytorch");
  ReadRequirementLines(path, pip_lines, wanted, out);
}

}  // namespace

// Defined in project_pins_toml.cpp.
void ParsePyproject(std::string_view path, std::string_view text, const std::vector<std::string>& wanted,
                    PinFileContents& out);
void ParseLock(bool poetry, std::string_view path, std::string_view text,
               const std::vector<std::string>& wanted, PinFileContents& out);

std::optional<Requirement> ParseRequirement(std::string_view text) {
  std::string_view s = Trim(text);
  // Per-requirement options (--hash=..., --config-settings) end the requirement.
  if (size_t opt = s.find(" --"); opt != std::string_view::npos) s = Trim(s.substr(0, opt));
  if (s.find("://") != std::string_view::npos || EndsWith(Lower(s), ".whl")) {
    size_t at = s.find('@');
    if (at == std::string_view::npos || s.find("://") < at) return FromWheelName(s);
  }
  size_t end = 0;
  while (end < s.size() && NameChar(s[end])) ++end;
  if (end == 0 || !std::isalnum(static_cast<unsigned char>(s[0]))) return std::nullopt;
  Requirement r;
  r.package = NormalizeDistName(s.substr(0, end));
  std::string_view rest = Trim(s.substr(end));
  if (!rest.empty() && rest.front() == '[') {
    size_t close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    rest = Trim(rest.substr(close + 1));
  }
  if (!rest.empty() && rest.front() == '@') {
    // A URL may hold ';' only after a space: "name @ url ; marker".
    size_t semi = rest.find(" ;");
    if (semi != std::string_view::npos) r.marker = std::string(Trim(rest.substr(semi + 2)));
    r.spec = "@ " + std::string(Trim(rest.substr(1, semi == std::string_view::npos ? semi : semi - 1)));
    return r;
  }
  if (size_t semi = rest.find(';'); semi != std::string_view::npos) {
    r.marker = std::string(Trim(rest.substr(semi + 1)));
    rest = Trim(rest.substr(0, semi));
  }
  if (!rest.empty() && rest.front() == '(' && rest.back() == ')')
    rest = Trim(rest.substr(1, rest.size() - 2));
  for (char c : rest) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("=<>!~.,*+-_").find(c) == std::string_view::npos)
      return std::nullopt;
    r.spec += c;
  }
  return r;
}

std::optional<PinFileKind> PinFileKindOf(std::string_view file_name) {
  std::string name = Lower(file_name);
  if (StartsWith(name, "requirements") && EndsWith(name, ".txt")) return PinFileKind::kRequirements;
  if (name == "pyproject.toml") return PinFileKind::kPyproject;
  if (name == "uv.lock") return PinFileKind::kUvLock;
  if (name == "poetry.lock") return PinFileKind::kPoetryLock;
  if (name == "environment.yml" || name == "environment.yaml") return PinFileKind::kCondaEnvironment;
  return std::nullopt;
}

PinFileContents ParsePinFile(PinFileKind kind, std::string_view path, std::string_view text,
                             const std::vector<std::string>& wanted) {
  PinFileContents out;
  if (text.find('\0') != std::string_view::npos) {
    out.warnings.push_back(std::string(path) + ": not a text file");
    return out;
  }
  switch (kind) {
    case PinFileKind::kRequirements:
      ParseRequirements(path, text, wanted, out);
      break;
    case PinFileKind::kPyproject:
      ParsePyproject(path, text, wanted, out);
      break;
    case PinFileKind::kUvLock:
    case PinFileKind::kPoetryLock:
      ParseLock(kind == PinFileKind::kPoetryLock, path, text, wanted, out);
      break;
    case PinFileKind::kCondaEnvironment:
      ParseConda(path, text, wanted, out);
      break;
  }
  return out;
}

}  // namespace gpudoctor
