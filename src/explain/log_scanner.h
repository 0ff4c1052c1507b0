// Finds every known message in a log of any size in one streaming pass: the literal prefilter
// (literal_automaton.h) reads every byte once; the full regex runs only on the few lines it hits,
// and only on a bounded window of that line, so a 10 MB line or binary garbage cannot make
// std::regex slow or deep. Results are deduplicated by entry and captured values.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/printable.h"  // Printable(): the captures and excerpts are printable text
#include "explain/explain_catalog.h"
#include "explain/literal_automaton.h"
#include "explain/log_facts.h"
#include "explain/log_normalizer.h"

namespace gpudoctor {

// How much of a hit line the regex sees: from kWindowBefore bytes before the literal to kWindowAfter
// bytes after it, clipped to the line. Catalog patterns keep what they capture within that reach.
// The bound keeps std::regex (a backtracking matcher whose recursion grows with the text) fast and
// within the stack on every platform, Windows' 1 MiB main-thread stack included.
inline constexpr size_t kWindowBefore = 512;
inline constexpr size_t kWindowAfter = 1024;

// The line that made a refinement take over a match (docs/explain.md, context rules).
struct ExplainContext {
  const ExplainEntry* refined = nullptr;  // the entry the match had before, "" when none
  uint64_t line = 0;                      // 1-based line of the evidence
  std::string excerpt;                    // that line (window), printable
};

struct ExplainMatch {
  const ExplainEntry* entry = nullptr;
  std::vector<std::pair<std::string, std::string>> captures;  // named groups that matched, in pattern order
  uint64_t first_line = 0;                                    // 1-based
  uint64_t count = 0;                                         // lines where it matched
  std::string excerpt;                                        // the first matching line (window), printable
  ExplainContext context;                                     // set when a refinement took the match over

  // The value of a named capture, "" when absent.
  std::string Capture(std::string_view name) const;
};

struct ScanStats {
  uint64_t bytes = 0;
  uint64_t lines = 0;           // newline-terminated lines, plus a last unterminated one
  uint64_t prefilter_hits = 0;  // literal occurrences
  uint64_t regex_runs = 0;      // windows given to std::regex (after dedup and cache)
  uint64_t regex_failures = 0;  // std::regex gave up (complexity or stack) on a window
};

// The immutable part of the matcher, built once per catalog: the automaton over every pattern's literal
// and which patterns each literal leads to. Shared by any number of scans (the fuzzer, the tests).
struct ExplainPrefilter {
  // `read_facts`: also find the log's own facts (log_facts.h); off for the short texts of ScanText, where
  // the extra literals would only cost automaton construction.
  explicit ExplainPrefilter(const ExplainCatalog& catalog, bool read_facts = true);

  enum class Role { kMatch, kContext, kFact };
  struct PatternRef {
    size_t entry = 0;          // index in catalog.entries (kMatch, kContext)
    size_t index = 0;          // in the entry's patterns, its context, or LogFactPatterns()
    Role role = Role::kMatch;  // kContext: a refinement's evidence; kFact: what the log states
  };

  const ExplainCatalog& catalog;
  std::unique_ptr<LiteralAutomaton> automaton;
  std::vector<PatternRef> patterns;
  std::vector<std::vector<uint32_t>> literal_patterns;  // literal id -> indexes into `patterns`
};

class LogScanner {
 public:
  // Builds its own prefilter (about 1 ms): fine for one scan.
  explicit LogScanner(const ExplainCatalog& catalog);
  // Shares a prefilter built once; `prefilter` (and its catalog) must outlive the scanner.
  explicit LogScanner(std::shared_ptr<const ExplainPrefilter> prefilter);
  ~LogScanner();
  LogScanner(const LogScanner&) = delete;
  LogScanner& operator=(const LogScanner&) = delete;

  // Feeds the next bytes of the log, in chunks of any size (a line may span chunks). The log is read as
  // the terminal showed it (log_normalizer.h): escape sequences removed, wrapped lines joined.
  void Feed(std::string_view chunk);
  // Ends the log; after this, matches() and stats() are final.
  void Finish();

  // In order of first appearance.
  const std::vector<ExplainMatch>& matches() const { return matches_; }
  // What the log states about its machine, in order of first appearance (log_facts.h).
  const std::vector<LogFact>& facts() const { return facts_; }
  const ScanStats& stats() const { return stats_; }

 private:
  struct Hit {
    uint64_t begin = 0;  // absolute offset of the literal's first byte
    uint64_t end = 0;    // one past its last byte
    uint32_t literal = 0;
  };
  struct Candidate {
    size_t entry_index = 0;
    size_t match_length = 0;
    std::vector<std::pair<std::string, std::string>> captures;
    std::string excerpt;
  };
  struct ContextHit {
    uint64_t line = 0;
    std::string excerpt;
  };
  struct CachedResult {
    size_t pattern = 0;
    std::string window;
    bool matched = false;
    size_t match_length = 0;
    std::vector<std::pair<std::string, std::string>> captures;
  };

  // Work done for one pattern on the current line: a line is evaluated again only for hits past the
  // window already tried, at most kMaxEvaluationsPerLine times, and never after a match.
  struct PatternLineState {
    uint64_t line = 0;
    size_t evaluations = 0;
    uint64_t window_end = 0;
    bool matched = false;
  };

  void FeedNormalized(std::string_view chunk);
  void ResolveHits(bool at_end);
  void ProcessHit(const Hit& hit, uint64_t window_end);
  void CountNewlinesUpTo(uint64_t absolute);
  bool EvaluatePattern(size_t pattern_index, std::string_view window);
  void FlushLine();
  void ApplyRefinements();
  void ReadCudaNamesAsHipOnAmdLogs();
  void RecordFact(const LogFactPattern& p, const std::vector<std::pair<std::string, std::string>>& captures,
                  std::string_view window);
  void Trim();
  std::string_view BufferRange(uint64_t begin, uint64_t end) const;

  std::shared_ptr<const ExplainPrefilter> prefilter_;
  const ExplainCatalog& catalog_;
  std::vector<PatternLineState> line_state_;  // per pattern

  LogNormalizer normalizer_;
  std::string normalized_;  // the normalizer's output for the chunk being fed
  LiteralAutomaton::State state_ = LiteralAutomaton::kStart;
  std::vector<LiteralAutomaton::Ending> endings_;  // of the block being scanned (reused: no allocation)
  std::vector<LiteralAutomaton::Ending> endings_scratch_;
  std::string buf_;
  uint64_t buf_start_ = 0;   // absolute offset of buf_[0]
  uint64_t counted_to_ = 0;  // newlines counted in [0, counted_to_)
  uint64_t newlines_ = 0;
  std::vector<Hit> pending_;
  size_t pending_head_ = 0;

  uint64_t current_line_ = 0;  // line of the candidates below
  std::vector<Candidate> line_candidates_;

  std::unordered_map<uint64_t, CachedResult> cache_;
  std::map<size_t, std::vector<ContextHit>> context_hits_;  // refinement entry index -> evidence lines
  std::vector<uint32_t> fact_evaluations_;                  // per fact pattern: regex runs so far
  std::vector<LogFact> facts_;
  std::map<std::string, size_t> match_index_;  // entry id + captures -> index in matches_
  std::vector<ExplainMatch> matches_;
  ScanStats stats_;
  bool finished_ = false;
};

// Convenience for short texts (tests): one Feed and Finish; matches only, no log facts. The first builds a
// prefilter for the one text; many texts share one built once (ExplainPrefilter(catalog, false)).
std::vector<ExplainMatch> ScanText(const ExplainCatalog& catalog, std::string_view text);
std::vector<ExplainMatch> ScanText(std::shared_ptr<const ExplainPrefilter> prefilter, std::string_view text);

// The order in which findings are reported: most severe first, then the higher priority (a refinement
// outranks the plain entries), then by first appearance. The first is the log's main diagnosis.
void RankExplainMatches(std::vector<ExplainMatch>& matches);

}  // namespace gpudoctor
