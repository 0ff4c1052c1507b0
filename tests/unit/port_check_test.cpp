// Translation tests that sit next to their input: every tests/port/checks/*.cu is translated and held to its
// inline expectations (docs/port.md, "Tests"):
//   // RUN: --hip-version X.Y --launch-macro     options for this file
//   // CHECK: text        a later line of the output holds text (in order, FileCheck-like)
//   // CHECK-NOT: text    no line of the output holds text
//   // FINDING: kind...   the findings on this line are exactly these kinds (no line without one may have
//   any)
//   // CONVERTED: family=N ...   the conversion counts, exactly
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "port/port_map.h"
#include "port/port_report.h"
#include "port/translator.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::ReadFileText;

namespace fs = std::filesystem;

std::vector<std::string> LinesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string TrimLine(std::string s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The text after "// TAG:" on the line, if it has one.
std::optional<std::string> Directive(const std::string& line, const std::string& tag) {
  size_t at = line.find("// " + tag + ":");
  if (at == std::string::npos) return std::nullopt;
  return TrimLine(line.substr(at + tag.size() + 4));
}

// An output line without its expectation comment.
std::string Code(const std::string& line) {
  for (const char* tag : {"// CHECK", "// FINDING:", "// CONVERTED:", "// RUN:"}) {
    size_t at = line.find(tag);
    if (at != std::string::npos) return line.substr(0, at);
  }
  return line;
}

std::vector<fs::path> CheckFiles() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(GPUDOCTOR_SOURCE_DIR) / "tests/port/checks"))
    if (e.path().extension() == ".cu") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

class PortCheck : public ::testing::TestWithParam<fs::path> {};

TEST_P(PortCheck, OutputFindingsAndCountsAreAsWritten) {
  auto map = EmbeddedPortMap();
  ASSERT_TRUE(map.ok()) << map.error().message;
  const std::string source = ReadFileText(GetParam());
  const std::vector<std::string> in_lines = LinesOf(source);

  PortOptions options;
  std::map<uint32_t, std::multiset<std::string>> expected_findings;
  std::optional<std::string> converted;
  for (size_t i = 0; i < in_lines.size(); ++i) {
    if (auto run = Directive(in_lines[i], "RUN")) {
      std::istringstream words(*run);
      for (std::string w; words >> w;) {
        if (w == "--launch-macro") options.launch_macro = true;
        if (w == "--hip-version") {
          words >> w;
          options.hip_version = Version::Parse(w);
        }
      }
    }
    if (auto f = Directive(in_lines[i], "FINDING")) {
      std::istringstream words(*f);
      for (std::string w; words >> w;) expected_findings[static_cast<uint32_t>(i + 1)].insert(w);
    }
    if (auto c = Directive(in_lines[i], "CONVERTED")) converted = *c;
  }

  auto t = TranslateCuda(source, **map, options);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const std::vector<std::string> out_lines = LinesOf(t->text);
  // Every line is kept; the one line port may add is the runtime include nvcc gave implicitly.
  ASSERT_EQ(out_lines.size(), in_lines.size() + (t->report.runtime_include_added ? 1 : 0))
      << "the translation must keep every line";

  // CHECK and CHECK-NOT against the output's code (expectation comments cut off).
  size_t next = 0;
  for (size_t i = 0; i < in_lines.size(); ++i) {
    if (auto check = Directive(in_lines[i], "CHECK")) {
      size_t k = next;
      while (k < out_lines.size() && Code(out_lines[k]).find(*check) == std::string::npos) ++k;
      EXPECT_LT(k, out_lines.size()) << GetParam().filename() << ":" << i + 1
                                     << ": no output line after line " << next + 1 << " holds: " << *check
                                     << "\n--- output:\n"
                                     << t->text;
      if (k < out_lines.size()) next = k + 1;
    }
    if (auto never = Directive(in_lines[i], "CHECK-NOT")) {
      for (size_t k = 0; k < out_lines.size(); ++k)
        EXPECT_EQ(Code(out_lines[k]).find(*never), std::string::npos)
            << GetParam().filename() << ": output line " << k + 1 << " holds " << *never;
    }
  }

  // FINDING: exactly the kinds written on each line, nothing on the others.
  std::map<uint32_t, std::multiset<std::string>> actual;
  for (const PortFinding& f : t->report.findings) actual[f.line].insert(std::string(ToString(f.kind)));
  std::map<uint32_t, std::set<std::string>> a, e;
  for (auto& [line, kinds] : actual) a[line] = std::set<std::string>(kinds.begin(), kinds.end());
  for (auto& [line, kinds] : expected_findings) e[line] = std::set<std::string>(kinds.begin(), kinds.end());
  EXPECT_EQ(a, e) << GetParam().filename() << ": findings differ";
  for (const PortFinding& f : t->report.findings) {
    EXPECT_FALSE(f.message.empty());
    EXPECT_FALSE(f.advice.empty()) << ToString(f.kind) << " at line " << f.line << " has no advice";
  }

  if (converted) {
    std::map<std::string, uint64_t> want;
    std::istringstream words(*converted);
    for (std::string w; words >> w;) {
      size_t eq = w.find('=');
      want[w.substr(0, eq)] = std::stoull(w.substr(eq + 1));
    }
    EXPECT_EQ(t->report.conversions, want) << GetParam().filename();
  }
}

INSTANTIATE_TEST_SUITE_P(Checks, PortCheck, ::testing::ValuesIn(CheckFiles()),
                         [](const ::testing::TestParamInfo<fs::path>& param_info) {
                           std::string name = param_info.param.stem().string();
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                           return name;
                         });

}  // namespace
}  // namespace gpudoctor
