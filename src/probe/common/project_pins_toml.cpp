// The TOML pin files, line by line (project_pins.h): pyproject.toml's dependency arrays ([project],
// optional dependencies, dependency groups), [tool.poetry.dependencies] with [[tool.poetry.source]],
// [tool.uv.sources] with [[tool.uv.index]], and the [[package]] entries of uv.lock and poetry.lock. Only
// the shapes these tools write and their guides show; a line in another shape is passed over.
#include <cctype>
#include <map>

#include "core/strings.h"
#include "probe/common/project_pins.h"

namespace gpudoctor {
namespace {

// The line without a comment: '#' outside a string.
std::string_view StripTomlComment(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\' && quote == '"')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return Trim(line.substr(0, i));
    }
  }
  return Trim(line);
}

// The quoted strings of a line, in order, and the bracket depth change outside them.
struct LineStrings {
  std::vector<std::string> strings;
  int depth_change = 0;
};
LineStrings Strings(std::string_view line) {
  LineStrings out;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '[') ++out.depth_change;
    if (c == ']') --out.depth_change;
    if (c != '"' && c != '\'') continue;
    std::string s;
    size_t j = i + 1;
    for (; j < line.size() && line[j] != c; ++j) {
      if (line[j] == '\\' && c == '"' && j + 1 < line.size()) ++j;
      s += line[j];
    }
    out.strings.push_back(std::move(s));
    i = j;
  }
  return out;
}

std::string Unquoted(std::string_view v) {
  auto s = Strings(v).strings;
  return s.empty() ? std::string(Trim(v)) : s.front();
}

// `{ index = "pytorch", marker = "sys_platform == 'linux'" }` -> key -> value.
std::map<std::string, std::string> InlineTable(std::string_view text) {
  std::map<std::string, std::string> out;
  size_t open = text.find('{'), close = text.rfind('}');
  if (open == std::string_view::npos) return out;
  std::string_view body = text.substr(
      open + 1, close == std::string_view::npos || close < open ? std::string_view::npos : close - open - 1);
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    char c = i < body.size() ? body[i] : ',';
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (c != ',') continue;
    std::string_view part = body.substr(start, i - start);
    start = i + 1;
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) continue;
    out[std::string(Trim(part.substr(0, eq)))] = Unquoted(part.substr(eq + 1));
  }
  return out;
}

// Poetry's version constraints: a bare version means exactly that one.
std::string PoetrySpec(const std::string& v) {
  if (v.empty() || v == "*") return "";
  return std::isdigit(static_cast<unsigned char>(v[0])) ? "==" + v : v;
}

bool IsWanted(const std::vector<std::string>& wanted, const std::string& package) {
  for (const auto& w : wanted)
    if (w == package) return true;
  return false;
}

enum class ArrayKind { kNone, kRequirements, kSources, kPoetry };

class PyprojectReader {
 public:
  PyprojectReader(std::string_view path, const std::vector<std::string>& wanted, PinFileContents& out)
      : path_(path), wanted_(wanted), out_(out) {}

  void Line(size_t number, std::string_view raw) {
    number_ = number;
    line_ = StripTomlComment(raw);
    if (line_.empty()) return;
    if (array_ != ArrayKind::kNone) return ArrayLine(line_);
    if (line_.front() == '[') return Header();
    size_t eq = line_.find('=');
    if (eq == std::string_view::npos) return;
    std::string key = Unquoted(line_.substr(0, eq));
    std::string_view value = Trim(line_.substr(eq + 1));
    KeyValue(key, value);
  }

  void Finish() {
    if (array_ != ArrayKind::kNone)
      out_.warnings.push_back(std::string(path_) + ":" + std::to_string(array_start_) + ": array not closed");
    for (auto& [pin, source] : sourced_) {
      auto it = indexes_.find(source);
      if (it != indexes_.end()) out_.pins[pin].index_url = it->second;
    }
  }

 private:
  void Header() {
    std::string_view h = line_;
    while (!h.empty() && (h.front() == '[' || h.front() == ' ')) h.remove_prefix(1);
    while (!h.empty() && (h.back() == ']' || h.back() == ' ')) h.remove_suffix(1);
    table_ = std::string(h);
    out_.uv |= StartsWith(table_, "tool.uv");
    out_.poetry |= StartsWith(table_, "tool.poetry");
    index_name_.clear();
    index_url_.clear();
  }

  bool DependencyArrayTable(const std::string& key) const {
    return (table_ == "project" && key == "dependencies") || table_ == "project.optional-dependencies" ||
           table_ == "dependency-groups" ||
           (table_ == "tool.uv" && (key == "dev-dependencies" || key == "constraint-dependencies" ||
                                    key == "override-dependencies"));
  }

  bool PoetryDependencies() const {
    return table_ == "tool.poetry.dependencies" || table_ == "tool.poetry.dev-dependencies" ||
           (StartsWith(table_, "tool.poetry.group.") && EndsWith(table_, ".dependencies"));
  }

  void KeyValue(const std::string& key, std::string_view value) {
    if (table_ == "tool.uv.index" || table_ == "tool.poetry.source") {
      if (key == "name") index_name_ = Unquoted(value);
      if (key == "url") index_url_ = Unquoted(value);
      if (!index_name_.empty() && !index_url_.empty()) indexes_[index_name_] = index_url_;
      return;
    }
    ArrayKind kind = ArrayKind::kNone;
    if (DependencyArrayTable(key)) kind = ArrayKind::kRequirements;
    if (table_ == "tool.uv.sources") kind = ArrayKind::kSources;
    if (PoetryDependencies()) kind = ArrayKind::kPoetry;
    if (kind == ArrayKind::kNone) return;
    package_ = NormalizeDistName(key);
    if (kind == ArrayKind::kRequirements || (!value.empty() && value.front() == '[')) {
      if (value.empty() || value.front() != '[') return;
      array_ = kind;
      array_start_ = number_;
      depth_ = 0;
      return ArrayLine(value);
    }
    if (value.empty() || !IsWanted(wanted_, package_)) return;  // `torch =` with nothing after it
    if (value.front() == '{') return TableEntry(kind, InlineTable(value));
    if (kind == ArrayKind::kPoetry) Add(Requirement{package_, PoetrySpec(Unquoted(value)), ""}, "");
  }

  void ArrayLine(std::string_view text) {
    LineStrings s = Strings(text);
    if (array_ == ArrayKind::kRequirements) {
      for (const auto& str : s.strings)
        if (auto req = ParseRequirement(str); req && IsWanted(wanted_, req->package))
          Add(std::move(*req), "");
    } else if (IsWanted(wanted_, package_) && text.find('{') != std::string_view::npos) {
      TableEntry(array_, InlineTable(text));
    }
    depth_ += s.depth_change;
    if (depth_ <= 0) array_ = ArrayKind::kNone;
  }

  // One { ... } of [tool.uv.sources] or a poetry dependency.
  void TableEntry(ArrayKind kind, const std::map<std::string, std::string>& t) {
    auto get = [&](const char* k) {
      auto it = t.find(k);
      return it == t.end() ? std::string() : it->second;
    };
    Requirement r{package_, "", get(kind == ArrayKind::kPoetry ? "markers" : "marker")};
    if (kind == ArrayKind::kPoetry) r.spec = PoetrySpec(get("version"));
    for (const char* k : {"url", "path", "git"})
      if (r.spec.empty() && !get(k).empty()) r.spec = "@ " + get(k);
    std::string source = get(kind == ArrayKind::kPoetry ? "source" : "index");
    Add(std::move(r), source);
  }

  void Add(Requirement r, const std::string& source) {
    ProjectPin p;
    p.file = std::string(path_);
    p.line = static_cast<uint32_t>(number_);
    p.text = std::string(line_);
    p.package = std::move(r.package);
    p.spec = std::move(r.spec);
    p.marker = std::move(r.marker);
    if (!source.empty()) sourced_.emplace_back(out_.pins.size(), source);
    out_.pins.push_back(std::move(p));
  }

  std::string_view path_;
  const std::vector<std::string>& wanted_;
  PinFileContents& out_;
  size_t number_ = 0;
  std::string_view line_;
  std::string table_;
  std::string package_;  // the key of the entry being read
  ArrayKind array_ = ArrayKind::kNone;
  size_t array_start_ = 0;
  int depth_ = 0;
  std::string index_name_, index_url_;          // of the [[tool.uv.index]] / [[tool.poetry.source]] read
  std::map<std::string, std::string> indexes_;  // index name -> url
  std::vector<std::pair<size_t, std::string>> sourced_;  // pin -> the index name it names
};

}  // namespace

void ParsePyproject(std::string_view path, std::string_view text, const std::vector<std::string>& wanted,
                    PinFileContents& out) {
  PyprojectReader reader(path, wanted, out);
  size_t number = 0;
  for (auto line : SplitLines(text)) reader.Line(++number, line);
  reader.Finish();
}

// uv.lock and poetry.lock: each [[package]] with its name, version and where it came from (uv's
// `source = { registry = "..." }`, poetry's [package.source] url).
void ParseLock(bool poetry, std::string_view path, std::string_view text,
               const std::vector<std::string>& wanted, PinFileContents& out) {
  struct Entry {
    std::string name, version, index, text;
    size_t line = 0;
  } e;
  auto flush = [&] {
    std::string package = NormalizeDistName(e.name);
    if (!e.name.empty() && IsWanted(wanted, package)) {
      ProjectPin p;
      p.file = std::string(path);
      p.line = static_cast<uint32_t>(e.line);
      p.text = e.text;
      p.package = package;
      p.spec = e.version.empty() ? "" : "==" + e.version;
      p.index_url = e.index;
      out.pins.push_back(std::move(p));
    }
    e = Entry{};
  };
  std::string table;
  size_t number = 0;
  for (auto raw : SplitLines(text)) {
    ++number;
    std::string_view line = StripTomlComment(raw);
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line == "[[package]]") flush();
      table = std::string(line);
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || raw.empty() || std::isspace(static_cast<unsigned char>(raw[0])))
      continue;
    std::string key(Trim(line.substr(0, eq)));
    std::string_view value = Trim(line.substr(eq + 1));
    if (table == "[[package]]") {
      if (key == "name") {
        e.name = Unquoted(value);
        if (e.line == 0) {
          e.line = number;
          e.text = std::string(line);
        }
      }
      if (key == "version") {  // the line a pin points at: the version it locks
        e.version = Unquoted(value);
        e.line = number;
        e.text = std::string(line);
      }
      if (!poetry && key == "source") {
        auto t = InlineTable(value);
        for (const char* k : {"registry", "url", "git", "path"})
          if (e.index.empty() && t.count(k)) e.index = t[k];
      }
    } else if (poetry && table == "[package.source]" && key == "url") {
      e.index = Unquoted(value);
    }
  }
  flush();
}

}  // namespace gpudoctor
