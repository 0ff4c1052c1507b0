// Logs as the terminal showed them (log_normalizer.h): escape sequences removed, lines wrapped at a console
// width joined again, line numbers and counts kept, chunking irrelevant, memory bounded on huge lines; and
// the report's handling of known-harmless messages and of failures no entry knows (unrecognized.toml).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_normalizer.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {
namespace {

std::string Normalize(const std::string& text, size_t chunk = 0) {
  LogNormalizer n;
  std::string out;
  if (chunk == 0) {
    n.Feed(text, out);
  } else {
    for (size_t i = 0; i < text.size(); i += chunk) n.Feed(std::string_view(text).substr(i, chunk), out);
  }
  n.Finish(out);
  return out;
}

ExplainReport Report(const std::string& log, size_t chunk = 0) {
  LogScanner scanner(EmbeddedPrefilter(true));
  if (chunk == 0) {
    scanner.Feed(log);
  } else {
    for (size_t i = 0; i < log.size(); i += chunk) scanner.Feed(std::string_view(log).substr(i, chunk));
  }
  scanner.Finish();
  Snapshot linux_machine;
  linux_machine.os.family = OsFamily::kLinux;
  return BuildExplainReport(scanner.matches(), scanner.stats(), linux_machine, EmbeddedDb(), scanner.facts());
}

// A line cut into pieces of `width` characters, as a console of that width shows it.
std::string Wrap(const std::string& line, size_t width) {
  std::string out;
  for (size_t i = 0; i < line.size(); i += width) out += line.substr(i, width) + "\n";
  return out;
}

TEST(LogNormalizerTest, RemovesColoursTitlesAndCursorMoves) {
  EXPECT_EQ(Normalize("\x1b[1;31mRuntimeError\x1b[0m: boom\n"), "RuntimeError: boom\n");
  EXPECT_EQ(Normalize("\x1b]0;title\x07ok\x1b]8;;http://x\x1b\\link\n"), "oklink\n");
  EXPECT_EQ(Normalize("a\x1b[2Kb\x1b"
                      "7c\n"),
            "abc\n");
  EXPECT_EQ(Normalize("crlf line\r\nnext\r\n"), "crlf line\nnext\n");
  EXPECT_EQ(Normalize("no newline at the end"), "no newline at the end");
}

TEST(LogNormalizerTest, JoinsLinesCutAtAConsoleWidthAndKeepsTheLineCount) {
  const std::string message =
      "OSError: [WinError 126] The specified module could not be found. Error loading "
      "\"C:\\Users\\bob\\AppData\\"
      "Local\\Programs\\Python\\Python311\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its "
      "dependencies.";
  const std::string wrapped = Wrap(message, 80);
  const std::string normalized = Normalize(wrapped);
  EXPECT_EQ(normalized.substr(0, message.size()), message);
  EXPECT_EQ(std::count(normalized.begin(), normalized.end(), '\n'),
            std::count(wrapped.begin(), wrapped.end(), '\n'));
  for (size_t chunk : {1, 7, 80, 81}) EXPECT_EQ(Normalize(wrapped, chunk), normalized) << chunk;

  ExplainReport r = Report("first line\n" + wrapped + "RuntimeError: CUDA error: out of memory\n");
  ASSERT_GE(r.matches.size(), 1u);
  bool fbgemm = false;
  for (const ExplainedMatch& m : r.matches) {
    if (m.match.entry->id == "windows.fbgemm_dependency") {
      fbgemm = true;
      EXPECT_EQ(m.match.first_line, 2u);
      EXPECT_EQ(m.match.Capture("dll"), "fbgemm.dll");
    }
    if (m.match.entry->id == "cuda.out_of_memory") {
      EXPECT_EQ(m.match.first_line,
                2u + static_cast<uint64_t>(std::count(wrapped.begin(), wrapped.end(), '\n')));
    }
  }
  EXPECT_TRUE(fbgemm);
}

TEST(LogNormalizerTest, LeavesRecordsAndIndentedLinesApart) {
  const std::string a(75, 'x'), b(75, 'y');
  const std::string records = "2024-05-01 " + a.substr(0, 69) + "\n" + "2024-05-01 " + b.substr(0, 69) + "\n";
  EXPECT_EQ(Normalize(records), records);  // two records of the same shape, each 80 wide
  const std::string indented = std::string(80, 'z') + "\n    File \"x.py\", line 3\n";
  EXPECT_EQ(Normalize(indented), indented);
  const std::string short_lines = "short\nlines\n";
  EXPECT_EQ(Normalize(short_lines), short_lines);
}

TEST(LogNormalizerTest, StreamsHugeLinesWithoutHoldingThem) {
  const std::string huge(5u << 20, 'q');
  EXPECT_EQ(Normalize(huge + "\nend\n", 65536), huge + "\nend\n");
}

TEST(ExplainRobustness, ColouredAndGluedMessagesStillMatch) {
  EXPECT_EQ(FirstId(Report("\x1b[31mRuntimeError: CUDA error: out of memory\x1b[0m\n")),
            "cuda.out_of_memory");
  EXPECT_EQ(FirstId(Report("cudaGetDeviceCount failed: CUDA error = 999at /src/ggml-cuda.cu:12\n")),
            "cuda.unknown");
}

TEST(ExplainHarmless, HarmlessLinesAreNamedButNeverFindings) {
  ExplainReport r = Report(
      "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: "
      "Attempting to register factory for plugin cuDNN when one has already been registered\n"
      "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n"
      "[    4.31] nvidia: module verification failed: signature and/or required key missing - tainting "
      "kernel\n");
  EXPECT_TRUE(r.matches.empty()) << FirstId(r);
  EXPECT_EQ(r.harmless.size(), 3u);
  EXPECT_EQ(ExplainExitCode(r), 0);
  EXPECT_NE(RenderExplainText(r, false).find("Harmless here"), std::string::npos);
  EXPECT_NE(RenderExplainJson(r).find("\"harmless\""), std::string::npos);
}

TEST(ExplainFallback, AnUnknownFailureGetsTheLastErrorAndItsPackages) {
  ExplainReport r = Report(
      "Traceback (most recent call last):\n"
      "  File \"/srv/venv/lib/python3.11/site-packages/frobnicator/core.py\", line 12, in run\n"
      "ValueError: first, earlier failure\n"
      "  File \"/srv/venv/lib/python3.11/site-packages/frobnicator/io.py\", line 3, in load\n"
      "frobnicator.errors.WidgetError: the widget cannot be frobnicated\n");
  ASSERT_EQ(r.matches.size(), 1u);
  const ExplainedMatch& m = r.matches.front();
  EXPECT_EQ(m.match.entry->id, "unrecognized.error");
  EXPECT_EQ(m.match.Capture("exception"), "WidgetError");
  EXPECT_NE(m.fallback_advice.find("frobnicator"), std::string::npos) << m.fallback_advice;
  EXPECT_EQ(ExplainExitCode(r), 1);
}

TEST(ExplainFallback, NeverSpeaksBesideARealDiagnosis) {
  ExplainReport r =
      Report("ValueError: something else went wrong\nRuntimeError: CUDA error: out of memory\n");
  ASSERT_FALSE(r.matches.empty());
  for (const ExplainedMatch& m : r.matches) EXPECT_FALSE(m.match.entry->fallback) << m.match.entry->id;
  EXPECT_TRUE(Report("all good, loss 0.13\nepoch 2 done\n").matches.empty());
}

}  // namespace
}  // namespace gpudoctor
