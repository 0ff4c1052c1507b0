// Machine strings reach the terminal printable (issue 35, attempts 16, 25, 63): an ESC, CSI (U+009B),
// CR or LF in a host name, GPU name or environment value of a snapshot is shown as '?', so it can neither
// run an escape sequence nor forge a line of gpudoctor's output.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_test_util.h"
#include "core/printable.h"
#include "core/text_table.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

const std::string kEvilHost = "evil\x1b]0;PWNED\a\x1b[2J\x1b[31mRED\r\nFAKE LINE";
const std::string kEvilGpu =
    "GPU\x1b[1;32mGREEN\xc2\x9b"
    "31m";

// A control character other than the line end (LF, or the CR LF a Windows console's text mode writes).
bool HasControl(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0) return true;
  }
  return false;
}

TEST(TerminalText, PrintableReplacesC0AndC1Controls) {
  EXPECT_EQ(Printable(kEvilGpu), "GPU?[1;32mGREEN??31m");
  EXPECT_EQ(Printable("Radeon \xc2\xae RX"), "Radeon \xc2\xae RX");  // U+00AE stays
}

TEST(TerminalText, TablesAndKeyValueBlocksShowMachineStringsPrintable) {
  TextTable table({"GPU", "name"});
  table.AddRow({"0", kEvilGpu});
  KeyValueBlock kv;
  kv.Add("Host", kEvilHost);
  const std::string out = table.Render() + kv.Render();
  EXPECT_FALSE(HasControl(out)) << out;
  EXPECT_EQ(out.find("FAKE LINE\n"), out.find("FAKE LINE"));  // still on the Host line
  EXPECT_NE(out.find("  Host  evil?]0;PWNED??[2J?[31mRED??FAKE LINE\n"), std::string::npos) << out;
}

// `info` and `check` on a snapshot whose host and GPU names carry escape sequences.
TEST(TerminalText, InfoAndCheckFromAPlantedSnapshot) {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/golden/rx6700xt-desktop.json");
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["host_name"] = kEvilHost;
  ASSERT_TRUE(doc["gpus"].is_array() && !doc["gpus"].empty());
  doc["gpus"][0]["name"] = kEvilGpu;
  const fs::path dir = testing::FreshTempDir("terminal_text_snapshot");
  std::ofstream(dir / "ansi.json") << doc.dump();
  for (const char* command : {"info", "check"}) {
    auto r = testing::Gpudoctor({command, "--from", (dir / "ansi.json").string()});
    ASSERT_TRUE(r.exit_code.has_value()) << command;
    EXPECT_NE(r.stdout_text.find("evil?]0;PWNED"), std::string::npos) << command << ":\n" << r.stdout_text;
    EXPECT_FALSE(HasControl(r.stdout_text)) << command << ":\n" << r.stdout_text;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpudoctor
