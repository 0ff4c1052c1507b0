// The layers of docs/ARCHITECTURE.md, checked against the code: every folder under src/ has its row in the
// layer table, every row names a folder, and every #include of a project header goes to the file's own
// layer or to one its row says it "may use". A new layer is one row of that table; an include that goes
// upward fails here, with the file, the line and the row to change.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/strings.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = GPUDOCTOR_SOURCE_DIR;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The layer table: folder ("gpu/api") -> the folders it may use; "every layer" is the wildcard "*".
std::map<std::string, std::set<std::string>> LayerTable() {
  std::map<std::string, std::set<std::string>> table;
  // | `core/` | responsibility | may use |
  const std::regex row(R"(^\| `([a-z_/]+)/` \|.*\| ([^|]+) \|\s*$)");
  const std::string architecture = ReadText(kSource / "docs/ARCHITECTURE.md");
  for (const auto& line : SplitLines(architecture)) {
    std::smatch m;
    std::string text(line);
    if (!std::regex_match(text, m, row)) continue;
    std::set<std::string>& uses = table[m[1]];
    std::string cell(Trim(m[2].str()));
    if (cell == "every layer") {
      uses.insert("*");
      continue;
    }
    if (cell == "std only") continue;
    for (auto name : Split(cell, ',')) uses.emplace(Trim(name));
  }
  return table;
}

// The row a path under src/ ("gpu/api/nvml_api.h", an include's target) belongs to: the longest folder of
// the table it starts with; "" for none.
std::string LayerOf(const std::map<std::string, std::set<std::string>>& table, const std::string& path) {
  std::string best;
  for (const auto& [folder, uses] : table)
    if (StartsWith(path, folder + "/") && folder.size() > best.size()) best = folder;
  return best;
}

TEST(Layers, TheTableHasARowPerFolderUnderSrc) {
  auto table = LayerTable();
  ASSERT_GE(table.size(), 10u) << "docs/ARCHITECTURE.md's layer table was not found or changed its form";
  for (const auto& entry : fs::directory_iterator(kSource / "src")) {
    if (!entry.is_directory()) continue;
    std::string folder = entry.path().filename().string();
    EXPECT_TRUE(table.count(folder)) << "src/" << folder
                                     << "/ has no row in docs/ARCHITECTURE.md's layer table";
  }
  for (const auto& [folder, uses] : table) {
    EXPECT_TRUE(fs::is_directory(kSource / "src" / folder))
        << "docs/ARCHITECTURE.md's layer table names " << folder << "/, which is not a folder under src/";
    for (const auto& used : uses)
      EXPECT_TRUE(used == "*" || table.count(used))
          << folder << "/ may use " << used << ", which has no row in the layer table";
  }
}

TEST(Layers, EveryIncludeGoesToALayerItsRowMayUse) {
  auto table = LayerTable();
  ASSERT_FALSE(table.empty());
  const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
  size_t checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "src")) {
    std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    std::string relative = fs::relative(entry.path(), kSource / "src").generic_string();
    std::string layer = LayerOf(table, relative);
    ASSERT_FALSE(layer.empty()) << relative;
    const std::set<std::string>& uses = table[layer];
    int line_number = 0;
    const std::string source = ReadText(entry.path());
    for (const auto& line : SplitLines(source)) {
      ++line_number;
      std::smatch m;
      std::string text(line);
      if (!std::regex_search(text, m, include)) continue;
      std::string target = LayerOf(table, m[1]);
      if (target.empty() || target == layer || uses.count("*") || uses.count(target)) continue;
      ADD_FAILURE() << "src/" << relative << ":" << line_number << " includes " << m[1] << ", but " << layer
                    << "/ may not use " << target << "/ (docs/ARCHITECTURE.md's layer table)";
    }
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

TEST(Layers, TheArchitectureCitesOnlyDocsThatExist) {
  std::string text = ReadText(kSource / "docs/ARCHITECTURE.md");
  const std::regex cited(R"(docs/([A-Za-z0-9_.-]+\.md))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), cited); it != std::sregex_iterator(); ++it)
    EXPECT_TRUE(fs::exists(kSource / "docs" / (*it)[1].str()))
        << "docs/ARCHITECTURE.md cites docs/" << (*it)[1];
}

}  // namespace
}  // namespace gpudoctor
