// Unity builds (docs/ARCHITECTURE.md, "Unity builds, names unique per target"): a target's .cpp files are
// compiled sixteen at a time as one translation unit, so the private names of a file (those of its anonymous
// namespace, its `static` functions and variables, its namespace-scope aliases) must differ from those of
// every other file of the target: of the whole target, since batches shift as files come and go. A clash is
// a compile error, or a call that silently takes the other file's overload. The targets are those of the
// Linux and of the Windows build: each layer of the layer links file (a .cpp under src/ is the layer of the
// longest folder holding it), the executable (src/cli/main.cpp) and tests/unit/*.cpp. Nor should a private
// name reuse one that a header the target includes declares. The scanner reads clang-formatted code: with
// comments, literals and preprocessor lines blanked, a declaration at namespace scope starts at column 0 and
// ends at its `;` or at the `{` of its body, which is skipped by its braces. The tests at the end plant
// clashes and look-alikes, so the check is known to fail when it should.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::kSourceTree;
using testing::ReadFileText;

namespace fs = std::filesystem;

// One name a file declares at namespace scope.
struct DeclaredName {
  std::string name;
  int line = 0;
  std::string alias_of;     // for `using X = T;` and `namespace X = T;`: T, its spaces normalized; else ""
  bool is_private = false;  // in an anonymous namespace, `static`, or an alias (a file's own, in effect)
};

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string SpacesTrimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

// `text` with a space only where one separates two words: `std::map<int, int>` and `std::map<int,int>` are
// one type.
std::string SpacesNormalized(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::isspace(static_cast<unsigned char>(text[i])) && !out.empty() && IsIdentifierChar(out.back()) &&
        i + 1 < text.size() && IsIdentifierChar(text[i + 1]))
      out += ' ';
    else if (!std::isspace(static_cast<unsigned char>(text[i])))
      out += text[i];
  }
  return out;
}

bool BeginsWithWord(const std::string& text, const std::string& word) {
  return text.compare(0, word.size(), word) == 0 &&
         (text.size() == word.size() || !IsIdentifierChar(text[word.size()]));
}

// Drops `word` and the spaces after it from the front of `text`, when `text` begins with that word.
bool ConsumeWord(std::string& text, const std::string& word) {
  if (!BeginsWithWord(text, word)) return false;
  text = SpacesTrimmed(text.substr(word.size()));
  return true;
}

// Where `word` first occurs in `text` as a whole word, from `from` on (npos for nowhere).
size_t FindWord(const std::string& text, const std::string& word, size_t from = 0) {
  for (size_t at = text.find(word, from); at != std::string::npos; at = text.find(word, at + 1))
    if ((at == 0 || !IsIdentifierChar(text[at - 1])) &&
        (at + word.size() == text.size() || !IsIdentifierChar(text[at + word.size()])))
      return at;
  return std::string::npos;
}

// `text` with comments, string and character literals (raw ones too) and preprocessor lines turned into
// spaces; newlines stay, so lines and columns do.
std::string BlankCommentsAndLiterals(std::string text) {
  auto raw_string_at = [&](size_t i) {  // R"x(...)x", also u8R, uR, UR, LR
    if (text.compare(i, 2, "R\"") != 0) return false;
    size_t word = i;
    while (word > 0 && IsIdentifierChar(text[word - 1])) --word;
    const std::string prefix = text.substr(word, i - word);
    return prefix.empty() || prefix == "u8" || prefix == "u" || prefix == "U" || prefix == "L";
  };
  bool line_start = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    size_t end = i;
    if (line_start && c == '#') {
      end = text.find('\n', i);  // a continued macro line ends with a backslash
      while (end != std::string::npos && text[end - 1] == '\\') end = text.find('\n', end + 1);
    } else if (text.compare(i, 2, "//") == 0) {
      end = text.find('\n', i);
    } else if (text.compare(i, 2, "/*") == 0) {
      end = text.find("*/", i + 2);
      if (end != std::string::npos) end += 2;
    } else if (raw_string_at(i)) {
      const size_t open = text.find('(', i);
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      end = open == std::string::npos ? open : text.find(close, open);
      if (end != std::string::npos) end += close.size();
    } else if (c == '"' ||
               (c == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(text[i - 1]))))) {
      end = i + 1;  // an apostrophe after a digit is a digit separator (1'000)
      while (end < text.size() && text[end] != c && text[end] != '\n') end += text[end] == '\\' ? 2 : 1;
      ++end;
    }
    end = std::min(end, text.size());
    if (end > i) {
      for (size_t k = i; k < end; ++k)
        if (text[k] != '\n') text[k] = ' ';
      i = end;
      continue;
    }
    if (c == '\n' || !std::isspace(static_cast<unsigned char>(c))) line_start = c == '\n';
    ++i;
  }
  return text;
}

// Where the name of a function or variable declaration ends: before its parameter list, its initializer or
// its array bounds (outside template arguments), else at the end.
size_t EndOfDeclaratorName(const std::string& head) {
  int angles = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    angles += c == '<' ? 1 : c == '>' && angles > 0 ? -1 : 0;
    if (angles == 0 && (c == '(' || c == '=' || c == '[')) return i;
  }
  return head.size();
}

// `head` without its `template <...>` and `[[attributes]]`.
std::string WithoutTemplateHead(std::string head) {
  if (ConsumeWord(head, "template") && head.compare(0, 1, "<") == 0) {
    size_t end = 0;
    for (int angles = 0; end < head.size(); ++end) {
      angles += head[end] == '<' ? 1 : head[end] == '>' ? -1 : 0;
      if (angles == 0) break;
    }
    head = SpacesTrimmed(head.substr(std::min(end + 1, head.size())));
  }
  while (head.compare(0, 2, "[[") == 0 && head.find("]]") != std::string::npos)
    head = SpacesTrimmed(head.substr(head.find("]]") + 2));
  return head;
}

// What one declaration at namespace scope declares, `head` being its code up to the `{` or `;` that ends
// it (`opens_body`: a `{`). False for a using-declaration or directive, a forward or extern declaration, a
// member defined out of its class (`Foo::Bar`), an operator, or a macro (TEST(...), TEST_F(...) and such).
bool NameOfDeclaration(const std::string& declaration, bool opens_body, bool in_anonymous,
                       DeclaredName& out) {
  std::string head = WithoutTemplateHead(declaration);
  if (BeginsWithWord(head, "using") || BeginsWithWord(head, "namespace")) {
    const size_t equals = head.find('=');
    if (equals == std::string::npos) return false;
    out.name = SpacesTrimmed(head.substr(head.find(' '), equals - head.find(' ')));
    out.alias_of = SpacesNormalized(head.substr(equals + 1));
    out.is_private = true;
    return !out.name.empty();
  }
  if (BeginsWithWord(head, "extern") && !opens_body) return false;
  ConsumeWord(head, "extern");  // extern "C" void F() {...}, its "C" blank by now
  const bool is_static = ConsumeWord(head, "static");
  std::string rest = head;
  size_t begin = 0, end = 0;
  if (ConsumeWord(rest, "struct") || ConsumeWord(rest, "class") || ConsumeWord(rest, "union") ||
      ConsumeWord(rest, "enum")) {
    if (!opens_body) return false;
    if (!ConsumeWord(rest, "class")) ConsumeWord(rest, "struct");  // enum class, enum struct
    begin = end = head.size() - rest.size();
    while (end < head.size() && IsIdentifierChar(head[end])) ++end;
  } else {
    end = EndOfDeclaratorName(head);
    while (end > 0 && std::isspace(static_cast<unsigned char>(head[end - 1]))) --end;
    begin = end;
    while (begin > 0 && IsIdentifierChar(head[begin - 1])) --begin;
    if (begin > 0 && head[begin - 1] == ':') return false;  // Foo::Bar: a member, or a specialization
  }
  out.name = head.substr(begin, end - begin);
  if (out.name.empty() || std::isdigit(static_cast<unsigned char>(out.name[0])) ||
      FindWord(head, "operator") != std::string::npos)
    return false;  // an operator is chosen by its operands' types
  if (std::none_of(out.name.begin(), out.name.end(), [](char c) { return std::islower(c); })) return false;
  out.is_private = in_anonymous || is_static;
  return true;
}

// Every name `source` declares at namespace scope in a declaration that starts at column 0: functions,
// variables, types and aliases, each with its line and whether it is private to the file.
std::vector<DeclaredName> NamespaceScopeNames(const std::string& source) {
  const std::string code = BlankCommentsAndLiterals(source);
  std::vector<size_t> line_starts{0};
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i] == '\n') line_starts.push_back(i + 1);
  std::vector<bool> namespaces;                   // those open here: anonymous or not
  std::map<std::string, std::string> brought_in;  // using a::b;  b -> a::b
  std::vector<DeclaredName> names;
  size_t head = std::string::npos;  // where the declaration being read begins
  int parens = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (head == std::string::npos && std::isspace(static_cast<unsigned char>(c))) continue;
    if (head == std::string::npos) head = i;
    parens += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (parens > 0 || (c != '{' && c != ';' && c != '}')) continue;
    const size_t begin = std::exchange(head, std::string::npos);
    const std::string text = SpacesTrimmed(code.substr(begin, i - begin));
    std::string rest = text;
    if (c == '}') {
      if (!namespaces.empty()) namespaces.pop_back();
      continue;
    }
    if (c == '{' && (ConsumeWord(rest, "namespace") || rest == "extern")) {
      namespaces.push_back(rest.empty());  // extern "C" {...} is transparent, like a namespace
      continue;
    }
    if (ConsumeWord(rest, "using") && rest.find('=') == std::string::npos &&
        rest.rfind("::") != std::string::npos)
      brought_in[rest.substr(rest.rfind("::") + 2)] = SpacesNormalized(rest);
    DeclaredName name;
    const bool in_anonymous = std::find(namespaces.begin(), namespaces.end(), true) != namespaces.end();
    if ((begin == 0 || code[begin - 1] == '\n') && NameOfDeclaration(text, c == '{', in_anonymous, name)) {
      if (brought_in.count(name.alias_of)) name.alias_of = brought_in[name.alias_of];
      name.line = static_cast<int>(
          std::upper_bound(line_starts.begin(), line_starts.end(), FindWord(code, name.name, begin)) -
          line_starts.begin());
      names.push_back(name);
    }
    for (int depth = 0; c == '{' && i < code.size(); ++i) {  // a body or an initializer: only its braces
      depth += code[i] == '{' ? 1 : code[i] == '}' ? -1 : 0;
      if (depth == 0) break;
    }
  }
  return names;
}

// ---- The targets and the check ----

// A file and the names it declares at namespace scope.
struct ScannedFile {
  std::string path;  // relative to the source tree
  std::vector<DeclaredName> names;
};

// `path` scanned, once per run: both builds and every target that includes a header share its scan.
const ScannedFile& ScanFile(const std::string& path) {
  static std::map<std::string, ScannedFile> scanned;
  auto it = scanned.find(path);
  if (it == scanned.end())
    it =
        scanned.emplace(path, ScannedFile{path, NamespaceScopeNames(ReadFileText(kSourceTree / path))}).first;
  return it->second;
}

// The files of src/ each build leaves out of its layers (src/CMakeLists.txt): the other platform's, and the
// one it does not use of each pair (zstd and zlib linked, or not: the Windows build has neither library).
const std::map<std::string, std::vector<std::string>> kLeftOutOfBuild = {
    {"Linux",
     {"src/platform/windows/", "src/binfmt/zstd/zstd_runtime.cpp", "src/binfmt/inflate/inflate_none.cpp"}},
    {"Windows",
     {"src/platform/posix/", "src/binfmt/zstd/zstd_linked.cpp", "src/binfmt/inflate/inflate_zlib.cpp"}},
};

// The targets of one build ("Linux", "Windows"), each with its .cpp files: the layer libraries of the
// layer links file, the executable (main.cpp, and on Linux glibc_floor_compat.cpp) and the unit tests.
std::map<std::string, std::vector<std::string>> UnityTargets(const std::string& build) {
  std::map<std::string, std::string> library_of_folder;  // "gpu/api" -> "gpudoctor_layer_gpu_api"
  std::istringstream links(ReadFileText(GPUDOCTOR_LAYER_LINKS));
  for (std::string line; std::getline(links, line);) {
    std::istringstream words(line.substr(0, line.find(':')));
    std::string folder, library;
    if (!line.empty() && line[0] != '#' && words >> folder >> library) library_of_folder[folder] = library;
  }
  std::map<std::string, std::vector<std::string>> targets;
  for (const char* root : {"src", "tests/unit"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kSourceTree / root)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".cpp") continue;
      const std::string path = fs::relative(entry.path(), kSourceTree).generic_string();
      const auto& left_out = kLeftOutOfBuild.at(build);
      if (std::any_of(left_out.begin(), left_out.end(),
                      [&](const std::string& p) { return path.starts_with(p); }))
        continue;
      std::string folder;  // the longest layer folder holding it
      for (const auto& [candidate, library] : library_of_folder)
        if (path.starts_with("src/" + candidate + "/") && candidate.size() > folder.size())
          folder = candidate;
      if (path == "src/cli/main.cpp" || path == "src/platform/posix/glibc_floor_compat.cpp")
        targets["gpudoctor"].push_back(path);
      else if (path.starts_with("tests/"))
        targets["gpudoctor_tests"].push_back(path);
      else if (!folder.empty())  // one in no layer fails cmake/Layers.cmake
        targets[library_of_folder[folder]].push_back(path);
    }
  }
  return targets;
}

// Every alias the project's headers declare, name -> the type it names, for telling whether two aliases
// name one type (`using Json = JsonValue;` and `using Json = nlohmann::json;` do).
std::map<std::string, std::string> HeaderAliases() {
  std::map<std::string, std::string> aliases;
  std::set<std::string> ambiguous;
  for (const char* root : {"src", "tests/unit"})
    for (const auto& entry : fs::recursive_directory_iterator(kSourceTree / root))
      if (entry.is_regular_file() && entry.path().extension() == ".h")
        for (const DeclaredName& n : ScanFile(fs::relative(entry.path(), kSourceTree).generic_string()).names)
          if (!n.alias_of.empty() && !aliases.emplace(n.name, n.alias_of).second &&
              aliases[n.name] != n.alias_of)
            ambiguous.insert(n.name);
  for (const std::string& name : ambiguous) aliases.erase(name);
  return aliases;
}

// What a name means for comparing two declarations of it: the type an alias names, through the aliases
// of the headers; for anything else its file (overloads in one file are fine, in two they are not).
std::string MeaningOf(const DeclaredName& declared, const std::string& path,
                      const std::map<std::string, std::string>& aliases) {
  if (declared.alias_of.empty()) return "declared in " + path;
  std::string type = declared.alias_of;
  for (int hops = 0; hops < 8 && aliases.count(type); ++hops) type = aliases.at(type);
  return type;
}

// The private names two or more files of `target` declare, the same alias of the same type aside: one
// message each, naming every file and line, and the fix.
std::vector<std::string> PrivateNameClashes(const std::string& target, const std::vector<ScannedFile>& files,
                                            const std::map<std::string, std::string>& aliases) {
  struct Sites {
    std::set<std::string> files, meanings;
    std::string where;
  };
  std::map<std::string, Sites> by_name;
  for (const ScannedFile& file : files) {
    for (const DeclaredName& declared : file.names) {
      if (!declared.is_private) continue;
      Sites& sites = by_name[declared.name];
      sites.files.insert(file.path);
      const std::string meaning = MeaningOf(declared, file.path, aliases);
      sites.meanings.insert(meaning);
      sites.where += (sites.where.empty() ? "" : ", ") + file.path + ":" + std::to_string(declared.line) +
                     (declared.alias_of.empty() ? "" : " = " + meaning);
    }
  }
  std::vector<std::string> clashes;
  for (const auto& [name, sites] : by_name)
    if (sites.files.size() > 1 && sites.meanings.size() > 1)
      clashes.push_back(name + " is private to " + std::to_string(sites.files.size()) + " files of " +
                        target + " (" + sites.where +
                        "), which a unity batch compiles as one translation unit: share it from a header, or "
                        "rename one to say what it is in its file (docs/ARCHITECTURE.md, \"Unity builds\")");
  return clashes;
}

TEST(UnityNames, NoTwoFilesOfATargetShareAPrivateName) {
  const auto aliases = HeaderAliases();
  std::set<std::string> clashes;  // a clash both builds have is one
  size_t files = 0, private_names = 0;
  for (const auto& [build, left_out] : kLeftOutOfBuild) {
    const auto targets = UnityTargets(build);
    ASSERT_GE(targets.size(), 20u) << GPUDOCTOR_LAYER_LINKS << " was not found or changed its form";
    ASSERT_TRUE(targets.count("gpudoctor_tests") && targets.count("gpudoctor_layer_gpu_api"));
    for (const auto& [target, paths] : targets) {
      std::vector<ScannedFile> scanned;
      for (const std::string& path : paths) scanned.push_back(ScanFile(path));
      for (const ScannedFile& file : scanned)
        private_names += std::count_if(file.names.begin(), file.names.end(),
                                       [](const DeclaredName& n) { return n.is_private; });
      for (std::string& clash : PrivateNameClashes(target, scanned, aliases)) clashes.insert(clash);
      files += paths.size();
    }
  }
  for (const std::string& clash : clashes) ADD_FAILURE() << clash;
  EXPECT_GT(files, 800u);  // each counted once per build
  EXPECT_GT(private_names, 3000u) << "the scanner lost the private names of the tree";
}

// ---- Private names against the headers a target includes ----

// The project headers `paths` include, directly or through other headers; a quoted include is looked up
// under src/, beside the including file, then in tests/unit/.
std::set<std::string> IncludedHeaders(const std::vector<std::string>& paths) {
  std::set<std::string> headers;
  std::vector<std::string> pending = paths;
  while (!pending.empty()) {
    const std::string path = pending.back();
    pending.pop_back();
    std::istringstream lines(ReadFileText(kSourceTree / path));
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("#include \"")) continue;
      const std::string name = line.substr(10, line.find('"', 10) - 10);
      for (const fs::path& folder : {fs::path("src"), fs::path(path).parent_path(), fs::path("tests/unit")}) {
        const std::string header = (folder / name).lexically_normal().generic_string();
        if (!fs::is_regular_file(kSourceTree / header)) continue;
        if (headers.insert(header).second) pending.push_back(header);
        break;
      }
    }
  }
  return headers;
}

// The private names of `files` that one of `headers` declares too, the same alias of the same type aside:
// one message each.
std::vector<std::string> HeaderNameReuses(const std::string& target, const std::vector<ScannedFile>& files,
                                          const std::vector<ScannedFile>& headers,
                                          const std::map<std::string, std::string>& aliases) {
  std::multimap<std::string, std::pair<std::string, std::string>> in_headers;  // name -> where, meaning
  for (const ScannedFile& header : headers)
    for (const DeclaredName& n : header.names)
      in_headers.emplace(
          n.name, std::pair(header.path + ":" + std::to_string(n.line), MeaningOf(n, header.path, aliases)));
  std::set<std::string> reuses;
  for (const ScannedFile& file : files) {
    for (const DeclaredName& n : file.names) {
      if (!n.is_private) continue;
      auto [first, last] = in_headers.equal_range(n.name);
      for (auto it = first; it != last; ++it)
        if (it->second.second != MeaningOf(n, file.path, aliases))
          reuses.insert(n.name + ", private to " + file.path + ":" + std::to_string(n.line) +
                        ", is also declared by " + it->second.first + ", which " + target +
                        " includes: a unity batch sees both, and a call may take the wrong one; rename the "
                        "private one to say what it is in its file (docs/ARCHITECTURE.md, \"Unity builds\")");
    }
  }
  return {reuses.begin(), reuses.end()};
}

TEST(UnityNames, NoPrivateNameReusesANameOfAHeaderItsTargetIncludes) {
  const auto aliases = HeaderAliases();
  std::set<std::string> reuses;
  for (const auto& [build, left_out] : kLeftOutOfBuild) {
    for (const auto& [target, paths] : UnityTargets(build)) {
      std::vector<ScannedFile> files, headers;
      for (const std::string& path : paths) files.push_back(ScanFile(path));
      for (const std::string& path : IncludedHeaders(paths)) headers.push_back(ScanFile(path));
      for (std::string& reuse : HeaderNameReuses(target, files, headers, aliases)) reuses.insert(reuse);
    }
  }
  for (const std::string& reuse : reuses) ADD_FAILURE() << reuse;
}

// ---- The scanner and the checks on planted sources ----

// `names` as "name line private|public", for comparing.
std::vector<std::string> NameLines(const std::vector<DeclaredName>& names) {
  std::vector<std::string> lines;
  for (const DeclaredName& n : names)
    lines.push_back(n.name + " " + std::to_string(n.line) + (n.is_private ? " private" : " public"));
  return lines;
}

TEST(UnityNames, TheScannerReadsDeclarationsAtColumnZeroOnly) {
  const std::string source = R"src(// A planted file.
#include "x.h"
namespace gpudoctor {
namespace {

using Json = nlohmann::json;
namespace stdfs = std::filesystem;
using std::string;
using namespace std::chrono_literals;
constexpr size_t kLimit = 4;
const std::string kGreeting = "int InString() {";
struct Row {
  int Member() { return 1; }
};
enum class Kind : int { kA, kB };
template <typename T>
T Twice(T v) {
  int Indented(int);
  return v + v;
}
std::map<std::string, std::vector<int>>
ReturnTypeOnItsOwnLine(int a,
                       int b) {
  return {};
}
// void InComment() {}
const char* kRaw = R"x(
void InRawString() {}
)x";
TEST(Planted, NotAName) {}
bool operator==(const Row& a, const Row& b);
void Row::Defined() {}

}  // namespace

int Public(int x) { return x; }
static int StaticHelper() { return 0; }

}  // namespace gpudoctor
)src";
  EXPECT_EQ(NameLines(NamespaceScopeNames(source)),
            (std::vector<std::string>{"Json 6 private", "stdfs 7 private", "kLimit 10 private",
                                      "kGreeting 11 private", "Row 12 private", "Kind 15 private",
                                      "Twice 17 private", "ReturnTypeOnItsOwnLine 22 private",
                                      "kRaw 27 private", "Public 36 public", "StaticHelper 37 private"}));
}

// A planted .cpp: `body` inside an anonymous namespace, from line 4 on.
ScannedFile PlantedFile(const std::string& path, const std::string& body) {
  return {path, NamespaceScopeNames("namespace gpudoctor {\nnamespace {\n\n" + body +
                                    "\n\n}  // namespace\n}  // namespace gpudoctor\n")};
}

TEST(UnityNames, APlantedClashIsReportedAndLookAlikesAreNot) {
  const std::map<std::string, std::string> no_aliases;
  const ScannedFile helper = PlantedFile("a.cpp", "int Helper(int x) { return x; }");
  auto clashes = PrivateNameClashes(
      "t", {helper, PlantedFile("b.cpp", "std::string Helper(const std::string& s) {\n  return s;\n}")},
      no_aliases);
  ASSERT_EQ(clashes.size(), 1u);
  EXPECT_TRUE(clashes[0].starts_with("Helper is private to 2 files of t (a.cpp:4, b.cpp:4)")) << clashes[0];
  EXPECT_NE(clashes[0].find("share it from a header, or rename one"), std::string::npos) << clashes[0];

  const ScannedFile json = PlantedFile("a.cpp", "using Json = nlohmann::json;");
  EXPECT_TRUE(
      PrivateNameClashes("t", {json, PlantedFile("b.cpp", "using Json = nlohmann :: json;")}, no_aliases)
          .empty());
  EXPECT_TRUE(PrivateNameClashes("t", {json, PlantedFile("b.cpp", "using Json = JsonValue;")},
                                 {{"JsonValue", "nlohmann::json"}})
                  .empty())
      << "a header's alias names the same type";
  const ScannedFile ordered =
      PlantedFile("b.cpp", "using nlohmann::ordered_json;\nusing Json = ordered_json;");
  EXPECT_TRUE(PrivateNameClashes("t", {ordered, PlantedFile("c.cpp", "using Json = nlohmann::ordered_json;")},
                                 no_aliases)
                  .empty())
      << "a using-declaration names the same type";
  EXPECT_EQ(PrivateNameClashes("t", {json, ordered}, no_aliases).size(), 1u)
      << "json and ordered_json differ";

  EXPECT_TRUE(
      PrivateNameClashes(
          "t", {PlantedFile("b.cpp", "int Helper(int x) { return x; }\nint Helper(double x);")}, no_aliases)
          .empty())
      << "overloads in one file are fine";
  const ScannedFile not_declarations =
      PlantedFile("b.cpp",
                  "void Outer() {\n  int Helper(int);\n  auto s = \"int Helper(int x) {\";\n}\n"
                  "// int Helper(int x) {\n/* int Helper(int x) { */");
  EXPECT_TRUE(PrivateNameClashes("t", {helper, not_declarations}, no_aliases).empty())
      << "an indented line, a string and comments declare nothing";
  EXPECT_EQ(PrivateNameClashes(
                "t", {helper, PlantedFile("c.cpp", "}  // namespace\nstatic int Helper = 1;\nnamespace {")},
                no_aliases)
                .size(),
            1u)
      << "a static variable outside the anonymous namespace is private too";
}

TEST(UnityNames, APlantedReuseOfAHeaderNameIsReported) {
  const ScannedFile header{
      "src/platform/filesystem.h",
      NamespaceScopeNames("namespace gpudoctor {\n\nstd::string_view BaseName(std::string_view "
                          "path);\nusing Json = nlohmann::json;\n\n}  // namespace gpudoctor\n")};
  const ScannedFile file = PlantedFile(
      "src/probe/x.cpp",
      "std::string BaseName(const std::string& path) { return path; }\nusing Json = nlohmann::json;");
  const auto reuses = HeaderNameReuses("t", {file}, {header}, {});
  ASSERT_EQ(reuses.size(), 1u) << "the same alias of the same type is fine";
  EXPECT_TRUE(
      reuses[0].starts_with("BaseName, private to src/probe/x.cpp:4, is also declared by "
                            "src/platform/filesystem.h:3, which t includes"))
      << reuses[0];
}

}  // namespace
}  // namespace gpudoctor
