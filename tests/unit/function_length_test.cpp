// No function in src/ passes 80 lines (issues 15 and 34): a function that grows past a screen is split by
// meaning (set-up, one step, the verdict) before it lands. Data tables are the one exception, each named in
// kDataTables below (a table of rows reads best whole). The scanner
// below reads C++ well enough for this code base: comments, string and character literals, raw strings and
// preprocessor lines are blanked; a brace block at namespace or class scope whose head has a parameter list
// is a function, counted from the first line of its head to its closing brace. Its own tests plant long and
// tricky functions, so the check is known to fail when it should.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::kSourceTree;
using testing::ReadFileText;

namespace fs = std::filesystem;

constexpr int kLongestFunction = 80;

// Replaces the characters of [begin, end) by spaces, keeping the newlines (so line numbers stay).
void Blank(std::string& text, size_t begin, size_t end) {
  for (size_t i = begin; i < end && i < text.size(); ++i)
    if (text[i] != '\n') text[i] = ' ';
}

// The index just past the literal that opens at `at` (a quote or an apostrophe), escapes honoured.
size_t EndOfQuoted(const std::string& text, size_t at) {
  const char quote = text[at];
  size_t i = at + 1;
  while (i < text.size() && text[i] != quote && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
  return i + 1;
}

// The source with comments, literals and preprocessor lines blanked: what is left is braces and code.
std::string CodeOnly(std::string text) {
  size_t i = 0;
  bool line_start = true;
  while (i < text.size()) {
    const char c = text[i];
    size_t end = i;
    if (line_start && c == '#') {
      end = text.find('\n', i);  // a continued macro line ends with a backslash
      while (end != std::string::npos && end > 0 && text[end - 1] == '\\') end = text.find('\n', end + 1);
    } else if (text.compare(i, 2, "//") == 0) {
      end = text.find('\n', i);
    } else if (text.compare(i, 2, "/*") == 0) {
      end = text.find("*/", i + 2);
      if (end != std::string::npos) end += 2;
    } else if (text.compare(i, 2, "R\"") == 0 &&
               (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
      size_t open = text.find('(', i);
      std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      end = text.find(close, open);
      if (end != std::string::npos) end += close.size();
    } else if (c == '"' ||
               (c == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(text[i - 1]))))) {
      end = EndOfQuoted(text, i);  // an apostrophe after a digit is a digit separator (1'000)
    }
    if (end == std::string::npos) end = text.size();
    if (end > i) {
      Blank(text, i, end);
      i = end;
      continue;
    }
    if (c == '\n')
      line_start = true;
    else if (c != ' ' && c != '\t')
      line_start = false;
    ++i;
  }
  return text;
}

std::string Trimmed(const std::string& text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

bool StartsWithWord(const std::string& text, const std::string& word) {
  return text.compare(0, word.size(), word) == 0 &&
         (text.size() == word.size() || !std::isalnum(static_cast<unsigned char>(text[word.size()])));
}

struct LongFunction {
  std::string head;  // the function's head up to its parameter list, spaces collapsed
  int first_line = 0;
  int lines = 0;
};

// What a brace opens, judged from the code since the last declaration ended (its head).
enum class Block { kNamespace, kClass, kFunction, kOther };

Block KindOfBlock(const std::string& head) {
  if (StartsWithWord(head, "namespace") || StartsWithWord(head, "extern")) return Block::kNamespace;
  std::string rest = head;
  if (StartsWithWord(rest, "template")) rest = Trimmed(rest.substr(rest.find('>') + 1));
  if (StartsWithWord(rest, "enum")) return Block::kOther;
  if ((StartsWithWord(rest, "class") || StartsWithWord(rest, "struct") || StartsWithWord(rest, "union")) &&
      rest.find('(') == std::string::npos)
    return Block::kClass;
  if (head.find('(') != std::string::npos && head.back() != '=') return Block::kFunction;
  return Block::kOther;
}

std::string ShortHead(const std::string& head) {
  std::string out;
  for (char c : head.substr(0, head.find('('))) {
    if (c == '\n' || c == '\t') c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

// Every function of `source` longer than `limit` lines.
std::vector<LongFunction> FunctionsLongerThan(const std::string& source, int limit) {
  const std::string code = CodeOnly(source);
  struct Open {
    Block kind;
    size_t head_begin;
    std::string head;
  };
  std::vector<Open> stack;
  std::vector<LongFunction> out;
  size_t head_begin = 0;  // where the current declaration's head starts
  auto at_declaration_scope = [&] {
    for (const auto& open : stack)
      if (open.kind != Block::kNamespace && open.kind != Block::kClass) return false;
    return true;
  };
  auto line_of = [&](size_t at) {
    return 1 + static_cast<int>(std::count(code.begin(), code.begin() + at, '\n'));
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '{') {
      Block kind = Block::kOther;
      std::string head = Trimmed(code.substr(head_begin, i - head_begin));
      if (at_declaration_scope()) kind = KindOfBlock(head);
      size_t begin = code.find_first_not_of(" \t\r\n", head_begin);
      stack.push_back({kind, begin, head});
      head_begin = i + 1;
    } else if (c == '}' && !stack.empty()) {
      Open open = stack.back();
      stack.pop_back();
      head_begin = i + 1;
      if (open.kind != Block::kFunction) continue;
      int first = line_of(open.head_begin), lines = line_of(i) - first + 1;
      if (lines > limit) out.push_back({ShortHead(open.head), first, lines});
    } else if (c == ';' && at_declaration_scope()) {
      head_begin = i + 1;
    } else if (c == ':' && at_declaration_scope()) {
      std::string label = Trimmed(code.substr(head_begin, i - head_begin));
      if (label == "public" || label == "private" || label == "protected") head_begin = i + 1;
    }
  }
  return out;
}

std::string RepeatedLines(int count, const std::string& line) {
  std::string out;
  for (int i = 0; i < count; ++i) out += line + "\n";
  return out;
}

TEST(FunctionLength, APlantedLongFunctionIsFound) {
  // 1 head line + 79 body lines + the closing brace: 81 lines.
  std::string source =
      "namespace a {\nint Long(int x) {\n" + RepeatedLines(79, "  x += 1;") + "}\n}  // namespace a\n";
  auto found = FunctionsLongerThan(source, 80);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].head, "int Long");
  EXPECT_EQ(found[0].first_line, 2);
  EXPECT_EQ(found[0].lines, 81);
}

TEST(FunctionLength, EightyLinesPassAndTheHeadCounts) {
  std::string fits = "int Fits(int x) {\n" + RepeatedLines(78, "  x += 1;") + "}\n";
  EXPECT_TRUE(FunctionsLongerThan(fits, 80).empty());
  std::string wrapped = "int Wrapped(int x,\n            int y) {\n" + RepeatedLines(78, "  x += y;") + "}\n";
  EXPECT_EQ(FunctionsLongerThan(wrapped, 80).size(), 1u) << "a wrapped head's lines count";
}

TEST(FunctionLength, LambdasAndInnerBlocksCountTowardTheirFunction) {
  std::string source = "void Outer() {\n  auto f = [&](int v) {\n" + RepeatedLines(40, "    v += 1;") +
                       "  };\n" + "  for (int i = 0; i < 3; ++i) {\n" + RepeatedLines(40, "    f(i);") +
                       "  }\n}\n";
  auto found = FunctionsLongerThan(source, 80);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].head, "void Outer");
}

TEST(FunctionLength, MemberFunctionsAndOutOfClassDefinitionsAreFunctions) {
  std::string source = "class Bench final : public Benchmark {\n public:\n  void Run() override {\n" +
                       RepeatedLines(85, "    step();") + "  }\n  int Small() const { return 1; }\n};\n" +
                       "void Bench::Other(const std::vector<std::string>& ids) {\n" +
                       RepeatedLines(85, "  use(ids);") + "}\n";
  auto found = FunctionsLongerThan(source, 80);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].head, "void Run");
  EXPECT_EQ(found[1].head, "void Bench::Other");
}

TEST(FunctionLength, BracesInLiteralsAndCommentsAndDataTablesAreNotCode) {
  std::string source = "// int Commented() {\n/* } } { */\nconst char kKernel[] = R\"K(\n" +
                       RepeatedLines(100, "void kernel(float* p) { p[0] = '}'; }") + ")K\";\n" +
                       "const Row kRows[] = {\n" + RepeatedLines(100, "    {\"{\", 1'000, '{'},") + "};\n" +
                       "int Short() { return '}' + \"}\"[0]; }\n";
  EXPECT_TRUE(FunctionsLongerThan(source, 80).empty());
  std::string after = source + "void Long() {\n" + RepeatedLines(81, "  f();") + "}\n";
  ASSERT_EQ(FunctionsLongerThan(after, 80).size(), 1u) << "the scan lost its place after the literals";
  EXPECT_EQ(FunctionsLongerThan(after, 80)[0].head, "void Long");
}

// The functions allowed past the limit: data tables only ("file:function head").
const char* const kDataTables[] = {
    "src/rules/rules.cpp:const std::vector<RuleInfo>& AllRuleInfo",  // one row per rule id, for `check
                                                                     // --list-rules`
};

bool IsDataTable(const std::string& file, const std::string& head) {
  for (const char* t : kDataTables)
    if (file + ":" + head == t) return true;
  return false;
}

TEST(FunctionLength, NoFunctionInSrcPassesEightyLines) {
  size_t files = 0;
  std::vector<std::string> tables_seen;
  for (const auto& entry : fs::recursive_directory_iterator(kSourceTree / "src")) {
    std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    ++files;
    const std::string file = fs::relative(entry.path(), kSourceTree).generic_string();
    for (const auto& f : FunctionsLongerThan(ReadFileText(entry.path()), kLongestFunction)) {
      if (IsDataTable(file, f.head)) {
        tables_seen.push_back(file + ":" + f.head);
        continue;
      }
      ADD_FAILURE() << file << ":" << f.first_line << " " << f.head << " is " << f.lines
                    << " lines; split it by meaning (set-up, one step, the verdict) so that none passes "
                    << kLongestFunction;
    }
  }
  EXPECT_GT(files, 300u) << "src/ was not found whole under " << kSourceTree;
  // An allow-list entry that no longer names a long function is stale: remove it.
  for (const char* t : kDataTables)
    EXPECT_NE(std::find(tables_seen.begin(), tables_seen.end(), t), tables_seen.end())
        << t << " is not past " << kLongestFunction << " lines (or is gone): remove it from kDataTables";
}

}  // namespace
}  // namespace gpudoctor
