// The explain matcher on its own: regex preparation, the Aho-Corasick prefilter, and the streaming
// scanner on chunk boundaries, repeated lines, 10 MB lines, binary garbage, NUL bytes and invalid
// UTF-8 (no crash, no hang, bounded work).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "explain/explain_catalog.h"
#include "explain/explain_pattern.h"
#include "explain/literal_automaton.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"

namespace gpudoctor {
namespace {

TEST(ExplainPattern, NamedGroupsBecomePlainGroups) {
  auto r = RewriteNamedGroups(R"(a(?<gfx>gfx\d+)(b)(?:c)[(?<x>)](?<n>\)))");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->regex, R"(a(gfx\d+)(b)(?:c)[(?<x>)](\)))");
  ASSERT_EQ(r->group_names.size(), 3u);
  EXPECT_EQ(r->group_names[0], "gfx");
  EXPECT_EQ(r->group_names[1], "");
  EXPECT_EQ(r->group_names[2], "n");
  EXPECT_FALSE(RewriteNamedGroups("(?<a>x)(?<a>y)").ok());
  EXPECT_FALSE(RewriteNamedGroups("(?<=x)").ok());
  EXPECT_FALSE(RewriteNamedGroups("(?<Bad>x)").ok());
}

TEST(ExplainPattern, SplitsOnlyTopLevelAlternatives) {
  auto parts = SplitTopLevelAlternatives(R"(abc|d(e|f)|[|]\||g)");
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0], "abc");
  EXPECT_EQ(parts[1], "d(e|f)");
  EXPECT_EQ(parts[2], R"([|]\|)");
  EXPECT_EQ(parts[3], "g");
}

TEST(ExplainPattern, DerivesTheLongestRequiredLiteral) {
  EXPECT_EQ(DeriveLiteral(R"(Memory access fault by GPU node-(?<n>\d+))"),
            "memory access fault by gpu node-");
  EXPECT_EQ(DeriveLiteral(R"(NVRM: Xid \(PCI:)"), "nvrm: xid (pci:");
  EXPECT_EQ(DeriveLiteral("abcd?efg"), "abc");  // d is optional
  EXPECT_EQ(DeriveLiteral("x{2,3}yz"), "yz");   // no quantifier digits
  EXPECT_EQ(DeriveLiteral(R"(Package \x27(?<p>[^\x27]+))"), "package ");
  EXPECT_EQ(DeriveLiteral(R"(\d+\s\w)"), "");
}

TEST(ExplainPattern, ListsTheOtherLiteralsEveryMatchContains) {
  EXPECT_EQ(AlsoRequiredLiterals(R"(NCCL INFO[^\n]{0,160}?libnccl-(?:net|tuner)\.so\b)", "nccl info"),
            (std::vector<std::string>{"libnccl-", ".so"}));
  EXPECT_EQ(AlsoRequiredLiterals("abcd?efgh", "efgh"), (std::vector<std::string>{"abc"}));  // d is optional
  EXPECT_EQ(AlsoRequiredLiterals("ab(cdef)ghij", "ghij"), std::vector<std::string>{});  // runs of 2 and none
  EXPECT_EQ(AlsoRequiredLiterals("abcdef|ghijkl", "abc"), std::vector<std::string>{});  // either side alone
  EXPECT_TRUE(ContainsAllFolded("x LIBNCCL-net.SO y", {"libnccl-", ".so"}));
  EXPECT_FALSE(ContainsAllFolded("x LIBNCCL-net y", {"libnccl-", ".so"}));
  EXPECT_TRUE(ContainsAllFolded("anything", {}));
}

TEST(LogScanner, ALineWithoutAPatternsOtherLiteralsCostsNoRegexRun) {
  ExplainCatalog catalog;
  ExplainEntry entry;
  entry.id = "test.nccl_plugin";
  auto pattern = CompileExplainPattern(R"(NCCL INFO[^\n]{0,160}?libnccl-net\.so)", "nccl info", false);
  ASSERT_TRUE(pattern.ok());
  entry.patterns.push_back(std::move(pattern).value());
  catalog.entries.push_back(std::move(entry));
  std::string log;
  for (int i = 0; i < 100; ++i)
    log += "node:17 [0] NCCL INFO Channel " + std::to_string(i) + "/32 via P2P/IPC\n";
  log += "node:17 [0] NCCL INFO Unable to load libnccl-net.so\n";
  LogScanner s(std::make_shared<const ExplainPrefilter>(catalog, false));
  s.Feed(log);
  s.Finish();
  ASSERT_EQ(s.matches().size(), 1u);
  EXPECT_EQ(s.matches()[0].first_line, 101u);
  EXPECT_EQ(s.stats().prefilter_hits, 101u);
  EXPECT_EQ(s.stats().regex_runs, 1u) << "lines without libnccl-net.so need no regex";
}

TEST(ExplainPattern, ShortLiteralsAreRefusedUnlessDeclared) {
  EXPECT_FALSE(CompileExplainPattern("ab.c", "", false).ok());
  EXPECT_TRUE(CompileExplainPattern("ab.c", "abxcde", false).ok());
  EXPECT_FALSE(CompileExplainPattern("([a-", "abcdef", false).ok());
}

TEST(LiteralAutomaton, FindsOverlappingLiteralsCaseInsensitively) {
  LiteralAutomaton ac({"hiperror", "error", "rror:", "Tensile"});
  std::vector<std::pair<size_t, uint32_t>> hits;
  auto state = ac.Scan(LiteralAutomaton::kStart, "x hipERROR: TENSILEx",
                       [&](size_t i, uint32_t id) { hits.emplace_back(i, id); });
  // "hiperror" ends at 9, "error" ends at 9, "rror:" at 10, "tensile" at 18.
  ASSERT_EQ(hits.size(), 4u);
  EXPECT_EQ(hits[0], (std::pair<size_t, uint32_t>{9, 0}));
  EXPECT_EQ(hits[1], (std::pair<size_t, uint32_t>{9, 1}));
  EXPECT_EQ(hits[2], (std::pair<size_t, uint32_t>{10, 2}));
  EXPECT_EQ(hits[3], (std::pair<size_t, uint32_t>{18, 3}));
  // State carries across chunks: "hiper" + "ror".
  hits.clear();
  state =
      ac.Scan(LiteralAutomaton::kStart, "hiper", [&](size_t i, uint32_t id) { hits.emplace_back(i, id); });
  ac.Scan(state, "ror", [&](size_t i, uint32_t id) { hits.emplace_back(i, id); });
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].second, 0u);
}

TEST(LogScanner, MatchesAcrossEveryChunkBoundary) {
  const std::string log =
      "step 1 loss 0.5\nstep 2 loss 0.4\n"
      "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n"
      "step 3\nrocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or "
      "directory for GPU arch : gfx1031\r\nend";
  for (size_t chunk = 1; chunk <= log.size(); chunk += (chunk < 40 ? 1 : 17)) {
    LogScanner s(EmbeddedPrefilter(true));
    for (size_t i = 0; i < log.size(); i += chunk) s.Feed(std::string_view(log).substr(i, chunk));
    s.Finish();
    ASSERT_EQ(s.matches().size(), 2u) << "chunk " << chunk;
    EXPECT_EQ(s.matches()[0].entry->id, "hip.no_binary_for_gpu");
    EXPECT_EQ(s.matches()[0].first_line, 3u);
    EXPECT_EQ(s.matches()[1].entry->id, "rocblas.tensile_library_missing");
    EXPECT_EQ(s.matches()[1].Capture("gfx"), "gfx1031");
    EXPECT_EQ(s.matches()[1].first_line, 5u);
    EXPECT_EQ(s.stats().lines, 6u);
  }
}

TEST(LogScanner, DeduplicatesByEntryAndCapturesAndCounts) {
  const std::string tail =
      "rocBLAS error: Cannot read a/TensileLibrary.dat: No such file or directory for GPU arch : gfx1032\n"
      "rocBLAS error: Cannot read a/TensileLibrary.dat: No such file or directory for GPU arch : gfx1031\n";
  // The same lines once: the regex runs a scan needs for them, however many patterns share their words.
  LogScanner once(EmbeddedPrefilter(true));
  once.Feed("info line 0\nRuntimeError: HIP error: invalid device function\n" + tail);
  once.Finish();
  std::string log;
  for (int i = 0; i < 1000; ++i)
    log += "info line " + std::to_string(i) + "\nRuntimeError: HIP error: invalid device function\n";
  log += tail;
  LogScanner s(EmbeddedPrefilter(true));
  s.Feed(log);
  s.Finish();
  ASSERT_EQ(s.matches().size(), 3u);
  EXPECT_EQ(s.matches()[0].count, 1000u);
  EXPECT_EQ(s.matches()[0].first_line, 2u);
  EXPECT_EQ(s.matches()[1].Capture("gfx"), "gfx1032");
  EXPECT_EQ(s.matches()[2].Capture("gfx"), "gfx1031");
  // 999 more copies of a line cost no regex run: they come from the cache.
  EXPECT_GT(once.stats().regex_runs, 0u);
  EXPECT_EQ(s.stats().regex_runs, once.stats().regex_runs) << "identical lines must come from the cache";
}

TEST(LogScanner, TenMegabyteLinesAreBoundedWork) {
  // One 10 MB line of a literal repeated, and one with the real message in its middle.
  std::string repeated;
  while (repeated.size() < (10u << 20)) repeated += "hipError";
  std::string middle(5u << 20, 'a');
  middle += " hipErrorNoBinaryForGpu: Unable to find code object for all current devices! ";
  middle.append(5u << 20, 'b');
  auto start = std::chrono::steady_clock::now();
  LogScanner s(EmbeddedPrefilter(true));
  s.Feed(repeated);
  s.Feed("\n");
  for (size_t i = 0; i < middle.size(); i += 1u << 20) s.Feed(std::string_view(middle).substr(i, 1u << 20));
  s.Finish();
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(s.matches().size(), 1u);
  EXPECT_EQ(s.matches()[0].first_line, 2u);
  EXPECT_LE(s.matches()[0].excerpt.size(), 310u);
  EXPECT_LT(seconds, 20.0);  // generous for sanitizer builds; about 0.2 s in Release
}

TEST(LogScanner, GarbageNulAndInvalidUtf8NeverCrash) {
  std::mt19937 rng(7);
  std::string junk(4u << 20, '\0');
  for (char& c : junk) c = static_cast<char>(rng());
  junk += std::string("\0\xff\xfe hipErrorOutOfMemory \xc3\x28 \xed\xa0\x80\n", 32);
  LogScanner s(EmbeddedPrefilter(true));
  for (size_t i = 0; i < junk.size(); i += 65521) s.Feed(std::string_view(junk).substr(i, 65521));
  s.Finish();
  bool found = false;
  for (const auto& m : s.matches()) {
    found = found || m.entry->id == "hip.out_of_memory";
    for (unsigned char c : m.excerpt) EXPECT_TRUE(c >= 0x20 || c == '?') << int(c);
  }
  EXPECT_TRUE(found);
}

TEST(LogScanner, EmptyAndUnknownInputMatchNothing) {
  EXPECT_TRUE(ScanEmbedded("").empty());
  EXPECT_TRUE(ScanEmbedded("my model did not converge\nloss went up").empty());
  // A crash no entry knows is left to the fallback (unrecognized.toml), never to a real diagnosis.
  const auto crash = ScanEmbedded("Segmentation fault (core dumped)\nmy model did not converge");
  ASSERT_EQ(crash.size(), 1u);
  EXPECT_TRUE(crash.front().entry->fallback) << crash.front().entry->id;
}

TEST(Printable, ReplacesControlAndInvalidBytes) {
  EXPECT_EQ(Printable(std::string("a\0b\tc\xff", 6), 100), "a?b c?");
  EXPECT_EQ(Printable("gfx1031 \xc3\xa9t\xc3\xa9", 100), "gfx1031 \xc3\xa9t\xc3\xa9");
  EXPECT_EQ(Printable("abcdef", 4), "abcd...");
}

}  // namespace
}  // namespace gpudoctor
