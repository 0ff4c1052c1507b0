// The layers of docs/ARCHITECTURE.md, checked against the code: every folder under src/ has its row in the
// layer table, every row names a folder, every #include of a project header goes to the file's own layer
// or to one its row says it "may use", and each layer's CMake library links exactly the layers of its row
// (build/layer_links.txt, written by cmake/Layers.cmake). A new layer is one row of that table and one
// gpudoctor_layer() line; an include or a link that goes upward fails here, with what to change.
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
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::kSourceTree;
using testing::ReadFileText;

namespace fs = std::filesystem;

const fs::path kLayerLinks = GPUDOCTOR_LAYER_LINKS;

using LayerGraph = std::map<std::string, std::set<std::string>>;  // folder -> the folders it uses

// The layer table: folder ("gpu/api") -> the folders it may use; "every layer" is the wildcard "*".
LayerGraph LayerTable() {
  LayerGraph table;
  // | `core/` | responsibility | may use |
  const std::regex row(R"(^\| `([a-z_/]+)/` \|.*\| ([^|]+) \|\s*$)");
  const std::string architecture = ReadFileText(kSourceTree / "docs/ARCHITECTURE.md");
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
std::string LayerOf(const LayerGraph& table, const std::string& path) {
  std::string best;
  for (const auto& [folder, uses] : table)
    if (StartsWith(path, folder + "/") && folder.size() > best.size()) best = folder;
  return best;
}

TEST(Layers, TheTableHasARowPerFolderUnderSrc) {
  auto table = LayerTable();
  ASSERT_GE(table.size(), 10u) << "docs/ARCHITECTURE.md's layer table was not found or changed its form";
  for (const auto& entry : fs::directory_iterator(kSourceTree / "src")) {
    if (!entry.is_directory()) continue;
    std::string folder = entry.path().filename().string();
    EXPECT_TRUE(table.count(folder)) << "src/" << folder
                                     << "/ has no row in docs/ARCHITECTURE.md's layer table";
  }
  for (const auto& [folder, uses] : table) {
    EXPECT_TRUE(fs::is_directory(kSourceTree / "src" / folder))
        << "docs/ARCHITECTURE.md's layer table names " << folder << "/, which is not a folder under src/";
    for (const auto& used : uses)
      EXPECT_TRUE(used == "*" || table.count(used))
          << folder << "/ may use " << used << ", which has no row in the layer table";
  }
}

// The includes of one file (its path under src/, its text) that go to a layer its row may not use.
std::vector<std::string> IncludeViolations(const LayerGraph& table, const std::string& relative,
                                           const std::string& source) {
  static const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::vector<std::string> violations;
  std::string layer = LayerOf(table, relative);
  if (layer.empty()) return {"src/" + relative + " is in no folder of the layer table"};
  const std::set<std::string>& uses = table.at(layer);
  int line_number = 0;
  for (const auto& line : SplitLines(source)) {
    ++line_number;
    std::smatch m;
    std::string text(line);
    if (!std::regex_search(text, m, include)) continue;
    std::string target = LayerOf(table, m[1]);
    if (target.empty() || target == layer || uses.count("*") || uses.count(target)) continue;
    violations.push_back("src/" + relative + ":" + std::to_string(line_number) + " includes " + m[1].str() +
                         ", but " + layer + "/ may not use " + target +
                         "/ (docs/ARCHITECTURE.md's layer table)");
  }
  return violations;
}

TEST(Layers, EveryIncludeGoesToALayerItsRowMayUse) {
  auto table = LayerTable();
  ASSERT_FALSE(table.empty());
  size_t checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kSourceTree / "src")) {
    std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    std::string relative = fs::relative(entry.path(), kSourceTree / "src").generic_string();
    for (const auto& violation : IncludeViolations(table, relative, ReadFileText(entry.path())))
      ADD_FAILURE() << violation;
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

TEST(Layers, APlantedUpwardIncludeIsReported) {
  auto table = LayerTable();
  ASSERT_TRUE(table.count("probe") && table.count("gates"));
  std::string source = ReadFileText(kSourceTree / "src/probe/machine_probe.cpp");
  ASSERT_TRUE(IncludeViolations(table, "probe/machine_probe.cpp", source).empty());
  source += "\n#include \"gates/verify_report.h\"\n";
  auto violations = IncludeViolations(table, "probe/machine_probe.cpp", source);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_NE(violations[0].find("probe/ may not use gates/"), std::string::npos) << violations[0];
}

// The link graph cmake/Layers.cmake wrote: "<folder> <target>: <link libraries, space-separated>" per layer,
// read as folder -> the folders of the layer libraries it links (other libraries left out).
LayerGraph LinkGraph() {
  LayerGraph links;
  std::map<std::string, std::string> folder_of_target;
  std::vector<std::pair<std::string, std::string>> rows;  // folder, its link libraries
  const std::string text = ReadFileText(kLayerLinks);
  for (const auto& line : SplitLines(text)) {
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    auto head = Split(line.substr(0, colon), ' ');
    if (head.size() != 2) continue;
    folder_of_target[std::string(head[1])] = std::string(head[0]);
    rows.emplace_back(std::string(head[0]), std::string(line.substr(colon + 1)));
  }
  for (const auto& [folder, libraries] : rows) {
    std::set<std::string>& uses = links[folder];
    for (auto library : Split(libraries, ' ')) {
      auto it = folder_of_target.find(std::string(Trim(library)));
      if (it != folder_of_target.end()) uses.insert(it->second);
    }
  }
  return links;
}

// What differs between the table's "may use" columns and the libraries' links, one line per difference.
std::vector<std::string> LinkGraphMismatches(const LayerGraph& table, const LayerGraph& links) {
  std::vector<std::string> mismatches;
  for (const auto& [folder, may_use] : table) {
    auto it = links.find(folder);
    if (it == links.end()) {
      mismatches.push_back(folder + "/ has a row but no library: add gpudoctor_layer(" + folder +
                           " ...) to src/CMakeLists.txt");
      continue;
    }
    std::set<std::string> expected = may_use;
    if (expected.count("*")) {
      expected.clear();
      for (const auto& [other, unused] : table)
        if (other != folder) expected.insert(other);
    }
    for (const auto& used : it->second)
      if (!expected.count(used))
        mismatches.push_back(folder + "/'s library links " + used + "/, which its row may not use");
    for (const auto& used : expected)
      if (!it->second.count(used))
        mismatches.push_back(folder + "/'s row may use " + used + "/, but its library does not link it");
  }
  for (const auto& [folder, uses] : links)
    if (!table.count(folder)) mismatches.push_back(folder + "/ has a library but no row in the layer table");
  return mismatches;
}

TEST(Layers, EachLibraryLinksTheLayersOfItsRow) {
  auto table = LayerTable();
  auto links = LinkGraph();
  ASSERT_GE(links.size(), 10u) << kLayerLinks << " was not found or changed its form (cmake/Layers.cmake)";
  for (const auto& mismatch : LinkGraphMismatches(table, links))
    ADD_FAILURE() << mismatch << " (docs/ARCHITECTURE.md's layer table, src/CMakeLists.txt)";
}

TEST(Layers, APlantedLinkViolationIsReported) {
  auto table = LayerTable();
  auto links = LinkGraph();
  ASSERT_TRUE(LinkGraphMismatches(table, links).empty());

  auto upward = links;
  upward["probe"].insert("gates");
  auto mismatches = LinkGraphMismatches(table, upward);
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0], "probe/'s library links gates/, which its row may not use");

  auto missing = links;
  missing["fleet"].erase("report");
  mismatches = LinkGraphMismatches(table, missing);
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0], "fleet/'s row may use report/, but its library does not link it");

  auto no_library = links;
  no_library.erase("topo");
  EXPECT_FALSE(LinkGraphMismatches(table, no_library).empty());
}

TEST(Layers, TheArchitectureCitesOnlyDocsThatExist) {
  std::string text = ReadFileText(kSourceTree / "docs/ARCHITECTURE.md");
  const std::regex cited(R"(docs/([A-Za-z0-9_.-]+\.md))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), cited); it != std::sregex_iterator(); ++it)
    EXPECT_TRUE(fs::exists(kSourceTree / "docs" / (*it)[1].str()))
        << "docs/ARCHITECTURE.md cites docs/" << (*it)[1];
}

}  // namespace
}  // namespace gpudoctor
