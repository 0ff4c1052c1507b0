// The HTML report in a real browser: the fixture report (recorded H100 machine, the verify and bench
// fixtures under tests/fixtures/reports) is opened in headless Chromium (Debian's `chromium` package).
// The DOM Chromium builds must hold every section and one drawn chart per bench group, each with its
// line and its point markers; the console must stay clean (Chromium logs console messages, Content-
// Security-Policy violations included, as ":CONSOLE" lines with --enable-logging=stderr); and a
// screenshot is taken and copied to the build folder (report-screenshot.png) for a person to look at. A
// page with a planted script proves that the console check does catch an error. Each run works in a
// temporary folder of its own (profile, page, screenshot), removed after it. Skipped, with the
// reason, where Chromium is not installed and on Windows builds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "platform/process.h"
#include "test_common.h"
#include "unique_temp_dir.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using testing::kSource;
using testing::ReadFileText;

// Charts the fixture's bench file gives: memory, transfer, gemm and launch (see its README).
constexpr size_t kFixtureCharts = 4;

std::string FindChromium() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    std::error_code ec;
    stdfs::path candidate = stdfs::path(dir) / "chromium";
    if (stdfs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return "";
}

// Copies a file the test made into the build folder for a person to look at (the last run's copy wins).
void KeepForAPerson(const stdfs::path& file, const stdfs::path& build_dir) {
  std::error_code ec;
  stdfs::copy_file(file, build_dir / file.filename(), stdfs::copy_options::overwrite_existing, ec);
}

struct Browser {
  std::string chromium;
  stdfs::path profile;

  // Runs headless Chromium on `page` with `mode` ("--dump-dom" or "--screenshot=FILE").
  ProcessResult Open(const stdfs::path& page, const std::string& mode,
                     const std::string& window = "1280,900") {
    ProcessRequest req;
    req.argv = {chromium,
                "--headless=new",
                "--no-sandbox",  // CI runs as root
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--enable-logging=stderr",
                "--v=0",
                "--user-data-dir=" + profile.string(),
                "--window-size=" + window,
                mode,
                "file://" + stdfs::absolute(page).string()};
    req.timeout = std::chrono::seconds(90);
    auto r = RunProcess(req);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : ProcessResult{};
  }
};

// The lines Chromium logged for the page's console (messages, errors, CSP violations).
std::vector<std::string> ConsoleLines(const std::string& stderr_text) {
  std::vector<std::string> out;
  std::stringstream ss(stderr_text);
  std::string line;
  while (std::getline(ss, line))
    if (line.find(":CONSOLE") != std::string::npos) out.push_back(line);
  return out;
}

std::vector<std::string> SvgElements(const std::string& dom) {
  std::vector<std::string> out;
  for (size_t pos = dom.find("<svg"); pos != std::string::npos; pos = dom.find("<svg", pos + 4)) {
    size_t end = dom.find("</svg>", pos);
    if (end == std::string::npos) break;
    out.push_back(dom.substr(pos, end - pos));
  }
  return out;
}

class ReportBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef _WIN32
    GTEST_SKIP()
        << "the browser test runs Debian's chromium on Linux; it does not apply to the Windows build";
#endif
    browser_.chromium = FindChromium();
    if (browser_.chromium.empty())
      GTEST_SKIP()
          << "chromium is not installed (apt-get install chromium): the report is not opened in a browser";
    dir_ = testing::UniqueTempDir("gpudoctor_report_browser");
    ASSERT_FALSE(dir_.empty()) << "no temporary folder could be made";
    browser_.profile = dir_ / "profile";
    // The page and the screenshot are made in the run's own folder, then copied to the build folder for a
    // person to open.
    build_dir_ = stdfs::path(GPUDOCTOR_BINARY_PATH).parent_path().parent_path();
    page_ = dir_ / "report-fixture.html";
    ProcessRequest req;
    req.argv = {GPUDOCTOR_BINARY_PATH,
                "report",
                "--force",
                "-o",
                page_.string(),
                "--sysroot",
                kSource + "/tests/fixtures/sysroot/h100-sxm-server",
                "--verify",
                kSource + "/tests/fixtures/reports/verify-fake-wrong-result.json",
                "--bench",
                kSource + "/tests/fixtures/reports/bench-h200-synthetic.json"};
    req.timeout = std::chrono::seconds(60);
    auto r = RunProcess(req);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->exit_code, 0) << r->stderr_text;
    KeepForAPerson(page_, build_dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) stdfs::remove_all(dir_, ec);
  }

  Browser browser_;
  stdfs::path dir_, build_dir_, page_;
};

TEST_F(ReportBrowser, DomHasEverySectionAndEveryChartDrawn) {
  ProcessResult r = browser_.Open(page_, "--dump-dom");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string& dom = r.stdout_text;
  ASSERT_NE(dom.find("</html>"), std::string::npos) << dom.substr(0, 500);
  for (const char* id : {"summary", "machine", "findings", "verify", "bench"})
    EXPECT_NE(dom.find("<section id=\"" + std::string(id) + "\""), std::string::npos) << id;
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_NE(dom.find("RESULT CHECK FAILED"), std::string::npos);
  EXPECT_NE(dom.find("1 gate FAILED"), std::string::npos);

  const auto svgs = SvgElements(dom);
  ASSERT_EQ(svgs.size(), kFixtureCharts);
  const std::regex polyline(R"(<polyline[^>]*points="([^"]*)\")");
  for (const auto& svg : svgs) {
    const std::string title = svg.substr(svg.find("<title>"), 60);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(svg, m, polyline)) << title;
    const std::string points = m[1].str();
    EXPECT_GE(std::count(points.begin(), points.end(), ','), 2) << title << ": " << points;
    size_t markers = 0;
    for (size_t p = svg.find("class=\"point\""); p != std::string::npos;
         p = svg.find("class=\"point\"", p + 1))
      ++markers;
    EXPECT_GE(markers, 4u) << title;
    EXPECT_NE(svg.find("class=\"tick-label\""), std::string::npos) << title;
    EXPECT_NE(svg.find("class=\"axis-title\""), std::string::npos) << title;
  }
  EXPECT_NE(dom.find("spec peak 4800 GB/s"), std::string::npos);
  EXPECT_TRUE(ConsoleLines(r.stderr_text).empty()) << ConsoleLines(r.stderr_text).front();
}

TEST_F(ReportBrowser, ScreenshotIsTakenWithACleanConsole) {
  const stdfs::path shot = dir_ / "report-screenshot.png";
  ProcessResult r = browser_.Open(page_, "--screenshot=" + shot.string(), "1280,7200");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(ConsoleLines(r.stderr_text).empty()) << ConsoleLines(r.stderr_text).front();
  const std::string png = ReadFileText(shot);
  ASSERT_GT(png.size(), 24u) << "no screenshot at " << shot;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  auto be32 = [&](size_t at) {
    return (static_cast<uint32_t>(static_cast<unsigned char>(png[at])) << 24) |
           (static_cast<uint32_t>(static_cast<unsigned char>(png[at + 1])) << 16) |
           (static_cast<uint32_t>(static_cast<unsigned char>(png[at + 2])) << 8) |
           static_cast<uint32_t>(static_cast<unsigned char>(png[at + 3]));
  };
  EXPECT_EQ(be32(16), 1280u);  // IHDR width
  EXPECT_EQ(be32(20), 7200u);  // IHDR height
  // A blank page compresses to a few kilobytes; text, tables and four charts do not.
  EXPECT_GT(png.size(), 100000u);
  KeepForAPerson(shot, build_dir_);
}

TEST_F(ReportBrowser, PlantedConsoleErrorIsCaught) {
  std::string html = ReadFileText(page_);
  const size_t body_end = html.rfind("</body>");
  ASSERT_NE(body_end, std::string::npos);
  html.insert(body_end, "<script>console.error('planted by gpudoctor test')</script>");
  const stdfs::path planted = dir_ / "planted.html";
  std::ofstream(planted, std::ios::binary) << html;
  ProcessResult r = browser_.Open(planted, "--dump-dom");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  // The page's policy blocks the script; the violation itself is logged to the console.
  EXPECT_FALSE(ConsoleLines(r.stderr_text).empty()) << r.stderr_text;
}

}  // namespace
}  // namespace gpudoctor
