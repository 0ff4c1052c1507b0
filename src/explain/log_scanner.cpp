// The streaming matcher: prefilter every byte, regex a bounded window around each literal hit,
// one winning entry per line, deduplicated results. See log_scanner.h for the why.
#include "explain/log_scanner.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <regex>

#include "explain/explain_pattern.h"

namespace gpudoctor {
namespace {

constexpr size_t kScanBlock = 64u << 10;       // bytes given to the prefilter at a time
constexpr size_t kMaxCacheEntries = 4096;      // distinct windows remembered (logs repeat lines)
constexpr size_t kMaxEvaluationsPerLine = 16;  // per pattern and line: bounds work on a 10 MB line
constexpr size_t kMaxCaptureBytes = 200;
constexpr size_t kMaxExcerptBytes = 300;
constexpr size_t kMaxContextHits = 256;         // evidence lines kept per refinement: the first ones
constexpr uint32_t kMaxFactEvaluations = 2048;  // per fact pattern: a log repeating a path costs no more

}  // namespace

std::string ExplainMatch::Capture(std::string_view name) const {
  for (const auto& [key, value] : captures)
    if (key == name) return value;
  return {};
}

ExplainPrefilter::ExplainPrefilter(const ExplainCatalog& c, bool read_facts) : catalog(c) {
  std::vector<std::string> literals;
  std::map<std::string, uint32_t> literal_ids;
  auto add = [&](size_t e, size_t p, Role role, const std::string& lit) {
    auto [it, fresh] = literal_ids.emplace(lit, static_cast<uint32_t>(literals.size()));
    if (fresh) {
      literals.push_back(lit);
      literal_patterns.emplace_back();
    }
    literal_patterns[it->second].push_back(static_cast<uint32_t>(patterns.size()));
    patterns.push_back(PatternRef{e, p, role});
  };
  for (size_t e = 0; e < c.entries.size(); ++e) {
    for (size_t p = 0; p < c.entries[e].patterns.size(); ++p)
      add(e, p, Role::kMatch, c.entries[e].patterns[p].literal);
    for (size_t p = 0; p < c.entries[e].context.size(); ++p)
      add(e, p, Role::kContext, c.entries[e].context[p].literal);
  }
  const std::vector<LogFactPattern>& facts = LogFactPatterns();
  for (size_t f = 0; read_facts && f < facts.size(); ++f) add(0, f, Role::kFact, facts[f].pattern.literal);
  automaton = std::make_unique<LiteralAutomaton>(literals);
}

LogScanner::LogScanner(const ExplainCatalog& catalog)
    : LogScanner(std::make_shared<const ExplainPrefilter>(catalog)) {}

LogScanner::LogScanner(std::shared_ptr<const ExplainPrefilter> prefilter)
    : prefilter_(std::move(prefilter)), catalog_(prefilter_->catalog) {
  line_state_.assign(prefilter_->patterns.size(), PatternLineState{});
  fact_evaluations_.assign(LogFactPatterns().size(), 0);
}

LogScanner::~LogScanner() = default;

std::string_view LogScanner::BufferRange(uint64_t begin, uint64_t end) const {
  return std::string_view(buf_).substr(static_cast<size_t>(begin - buf_start_),
                                       static_cast<size_t>(end - begin));
}

void LogScanner::CountNewlinesUpTo(uint64_t absolute) {
  if (absolute <= counted_to_) return;
  std::string_view range = BufferRange(counted_to_, absolute);
  newlines_ += static_cast<uint64_t>(std::count(range.begin(), range.end(), '\n'));
  counted_to_ = absolute;
}

void LogScanner::Feed(std::string_view chunk) {
  if (finished_ || chunk.empty()) return;
  stats_.bytes += chunk.size();
  normalized_.clear();
  normalizer_.Feed(chunk, normalized_);
  FeedNormalized(normalized_);
}

void LogScanner::FeedNormalized(std::string_view chunk) {
  if (chunk.empty()) return;
  const size_t old_size = buf_.size();
  buf_.append(chunk);
  ResolveHits(false);  // hits left from the last chunk now see the bytes after them
  const uint64_t base = buf_start_ + old_size;
  const LiteralAutomaton& automaton = *prefilter_->automaton;
  const std::string_view fresh = std::string_view(buf_).substr(old_size);
  // In blocks, so that the endings of one block bound the memory whatever the chunk's size.
  for (size_t from = 0; from < fresh.size(); from += kScanBlock) {
    endings_.clear();
    state_ = automaton.FindEndings(state_, fresh.substr(from, kScanBlock), endings_, endings_scratch_);
    for (const LiteralAutomaton::Ending& ending : endings_) {
      for (uint32_t literal : automaton.Outputs(ending.state)) {
        ++stats_.prefilter_hits;
        const uint64_t end = base + from + ending.at + 1;
        pending_.push_back(Hit{end - automaton.literal_length(literal), end, literal});
        // Resolve at once when possible, so a chunk full of hits never piles up.
        if (pending_.size() - pending_head_ == 1) ResolveHits(false);
      }
    }
  }
  ResolveHits(false);
  Trim();
}

void LogScanner::Finish() {
  if (finished_) return;
  normalized_.clear();
  normalizer_.Finish(normalized_);
  FeedNormalized(normalized_);
  ResolveHits(true);
  FlushLine();
  const uint64_t buf_end = buf_start_ + buf_.size();
  CountNewlinesUpTo(buf_end);
  stats_.lines = newlines_ + ((!buf_.empty() && buf_.back() != '\n') ? 1 : 0);
  ApplyRefinements();
  ReadCudaNamesAsHipOnAmdLogs();
  finished_ = true;
}

void LogScanner::ResolveHits(bool at_end) {
  const uint64_t buf_end = buf_start_ + buf_.size();
  while (pending_head_ < pending_.size()) {
    const Hit hit = pending_[pending_head_];
    const uint64_t reach = std::min(buf_end, hit.end + kWindowAfter);
    std::string_view ahead = BufferRange(hit.end, reach);
    const void* nl = ahead.empty() ? nullptr : std::memchr(ahead.data(), '\n', ahead.size());
    uint64_t window_end = 0;
    if (nl != nullptr) {
      window_end = hit.end + static_cast<uint64_t>(static_cast<const char*>(nl) - ahead.data());
    } else if (hit.end + kWindowAfter <= buf_end || at_end) {
      window_end = reach;
    } else {
      break;  // needs bytes not read yet
    }
    ProcessHit(hit, window_end);
    ++pending_head_;
  }
  if (pending_head_ == pending_.size()) {
    pending_.clear();
    pending_head_ = 0;
  }
}

void LogScanner::ProcessHit(const Hit& hit, uint64_t window_end) {
  CountNewlinesUpTo(hit.begin);
  const uint64_t line = newlines_ + 1;
  if (line != current_line_) {
    FlushLine();
    current_line_ = line;
  }
  std::string_view window;
  bool have_window = false;
  for (uint32_t p : prefilter_->literal_patterns[hit.literal]) {
    const ExplainPrefilter::PatternRef& ref = prefilter_->patterns[p];
    if (ref.role == ExplainPrefilter::Role::kFact && fact_evaluations_[ref.index] >= kMaxFactEvaluations)
      continue;
    PatternLineState& st = line_state_[p];
    if (st.line != line) st = PatternLineState{line, 0, 0, false};
    if (st.matched || hit.begin < st.window_end || st.evaluations >= kMaxEvaluationsPerLine) continue;
    if (!have_window) {
      uint64_t floor =
          std::max<uint64_t>(buf_start_, hit.begin > kWindowBefore ? hit.begin - kWindowBefore : 0);
      uint64_t start = hit.begin;
      while (start > floor && buf_[static_cast<size_t>(start - 1 - buf_start_)] != '\n') --start;
      uint64_t stop = window_end;
      if (stop > hit.end && buf_[static_cast<size_t>(stop - 1 - buf_start_)] == '\r') --stop;
      window = BufferRange(start, std::max(stop, hit.end));
      have_window = true;
    }
    ++st.evaluations;
    st.window_end = window_end;
    st.matched = EvaluatePattern(p, window);
  }
}

bool LogScanner::EvaluatePattern(size_t pattern_index, std::string_view window) {
  using Role = ExplainPrefilter::Role;
  const ExplainPrefilter::PatternRef ref = prefilter_->patterns[pattern_index];
  const size_t entry_index = ref.entry;
  const ExplainPattern& pattern = ref.role == Role::kFact ? LogFactPatterns()[ref.index].pattern
                                  : ref.role == Role::kContext
                                      ? catalog_.entries[entry_index].context[ref.index]
                                      : catalog_.entries[entry_index].patterns[ref.index];
  if (ref.role == Role::kFact) ++fact_evaluations_[ref.index];
  if (!ContainsAllFolded(window, pattern.also_required)) return false;  // cannot match: no regex run
  const uint64_t key = std::hash<std::string_view>{}(window) ^ (0x9e3779b97f4a7c15ull * (pattern_index + 1));
  auto it = cache_.find(key);
  if (it == cache_.end() || it->second.pattern != pattern_index || it->second.window != window) {
    CachedResult r;
    r.pattern = pattern_index;
    r.window = std::string(window);
    ++stats_.regex_runs;
    try {
      std::cmatch m;
      if (std::regex_search(window.data(), window.data() + window.size(), m, *pattern.regex)) {
        r.matched = true;
        r.match_length = static_cast<size_t>(m.length(0));
        for (size_t g = 0; g < pattern.group_names.size(); ++g) {
          if (pattern.group_names[g].empty() || !m[g + 1].matched) continue;
          r.captures.emplace_back(pattern.group_names[g], Printable(m[g + 1].str(), kMaxCaptureBytes));
        }
      }
    } catch (const std::exception&) {
      ++stats_.regex_failures;  // std::regex_error: error_complexity / error_stack on this window
    }
    if (cache_.size() >= kMaxCacheEntries) cache_.clear();
    it = cache_.insert_or_assign(key, std::move(r)).first;
  }
  if (!it->second.matched) return false;
  if (ref.role == Role::kFact) {
    RecordFact(LogFactPatterns()[ref.index], it->second.captures, window);
    return true;
  }
  if (ref.role == Role::kContext) {
    std::vector<ContextHit>& hits = context_hits_[entry_index];
    if (hits.size() < kMaxContextHits && (hits.empty() || hits.back().line != current_line_))
      hits.push_back(ContextHit{current_line_, Printable(window, kMaxExcerptBytes)});
    return true;
  }
  line_candidates_.push_back(Candidate{entry_index, it->second.match_length, it->second.captures,
                                       Printable(window, kMaxExcerptBytes)});
  return true;
}

void LogScanner::FlushLine() {
  if (line_candidates_.empty()) return;
  auto better = [&](const Candidate& a, const Candidate& b) {
    const ExplainEntry& ea = catalog_.entries[a.entry_index];
    const ExplainEntry& eb = catalog_.entries[b.entry_index];
    if (ea.priority != eb.priority) return ea.priority > eb.priority;
    if (a.match_length != b.match_length) return a.match_length > b.match_length;
    return a.entry_index < b.entry_index;
  };
  Candidate best = *std::min_element(line_candidates_.begin(), line_candidates_.end(), better);
  // Another pattern of the same entry on the same line adds what it captured (a general
  // "nvidia-container-cli: requirement error: ..." pattern and the one that reads "cuda>=12.4" from it): one
  // line, one match.
  for (const Candidate& c : line_candidates_) {
    if (c.entry_index != best.entry_index) continue;
    for (const auto& [name, value] : c.captures) {
      bool known = false;
      for (const auto& kept : best.captures) known = known || kept.first == name;
      if (!known) best.captures.emplace_back(name, value);
    }
  }
  const ExplainEntry& entry = catalog_.entries[best.entry_index];
  std::string key = entry.id;
  for (const auto& [name, value] : best.captures) key += '\0' + name + '=' + value;
  auto [it, fresh] = match_index_.emplace(key, matches_.size());
  if (fresh) {
    matches_.push_back(ExplainMatch{&entry, best.captures, current_line_, 1, best.excerpt, ExplainContext{}});
  } else {
    ++matches_[it->second].count;
  }
  line_candidates_.clear();
}

namespace {

// A GPU target that stands in a list of targets ("supported types:[gfx1030 gfx1100 ...]", "supports CUDA
// capabilities sm_50 sm_60 ...") names what a build supports, not the GPU the log ran on.
bool IsInListOfTargets(std::string_view kind, std::string_view value, std::string_view window) {
  if (kind != "gfx" && kind != "sm") return false;
  const std::string_view prefix = kind == "gfx" ? "gfx" : "sm_";
  const size_t at = window.find(value);
  if (at == std::string_view::npos) return false;
  auto is_separator = [](char c) { return c == ' ' || c == ',' || c == ';' || c == '\'' || c == '"'; };
  size_t after = at + value.size();
  while (after < window.size() && is_separator(window[after])) ++after;
  if (window.substr(after, prefix.size()) == prefix) return true;
  size_t before = at;
  while (before > 0 && is_separator(window[before - 1])) --before;
  const size_t word = window.find_last_of(" ,;'\"[(:=", before == 0 ? 0 : before - 1);
  const size_t start = word == std::string_view::npos ? 0 : word + 1;
  return before < at && window.substr(start, prefix.size()) == prefix;
}

}  // namespace

void LogScanner::RecordFact(const LogFactPattern& p,
                            const std::vector<std::pair<std::string, std::string>>& captures,
                            std::string_view window) {
  std::string value = p.value;
  for (const auto& [name, v] : captures)
    if (name == "v") value = v;
  if (value.empty() || IsInListOfTargets(p.kind, value, window)) return;
  size_t of_kind = 0;
  for (const LogFact& f : facts_) {
    if (f.kind != p.kind) continue;
    if (f.value == value) return;
    ++of_kind;
  }
  if (of_kind < kMaxLogFactValuesPerKind)
    facts_.push_back(
        LogFact{p.kind, value, current_line_, Printable(window, kMaxExcerptBytes), LogGpuVendor(p, value)});
}

// A refinement takes over each match of the entry it refines that has evidence close enough; among
// several refinements the higher priority wins. The evidence line, when it was a finding of its own
// seen only there, is absorbed: the combination says more than its parts.
void LogScanner::ApplyRefinements() {
  if (context_hits_.empty()) return;
  std::vector<uint64_t> absorbed;
  for (ExplainMatch& m : matches_) {
    const ExplainEntry* best = nullptr;
    const ContextHit* evidence = nullptr;
    for (const auto& [index, hits] : context_hits_) {
      const ExplainEntry& r = catalog_.entries[index];
      if (r.refines != m.entry->id || (best != nullptr && best->priority >= r.priority)) continue;
      const ContextHit* nearest = nullptr;
      for (const ContextHit& h : hits) {
        const uint64_t distance = h.line > m.first_line ? h.line - m.first_line : m.first_line - h.line;
        if (r.within != 0 && distance > r.within) continue;
        const uint64_t best_distance = nearest == nullptr
                                           ? UINT64_MAX
                                           : (nearest->line > m.first_line ? nearest->line - m.first_line
                                                                           : m.first_line - nearest->line);
        if (distance < best_distance) nearest = &h;
      }
      if (nearest != nullptr) {
        best = &r;
        evidence = nearest;
      }
    }
    if (best == nullptr) continue;
    m.context = ExplainContext{m.entry, evidence->line, evidence->excerpt};
    m.entry = best;
    absorbed.push_back(evidence->line);
  }
  std::erase_if(matches_, [&](const ExplainMatch& m) {
    return m.context.refined == nullptr && m.count == 1 &&
           std::find(absorbed.begin(), absorbed.end(), m.first_line) != absorbed.end();
  });
}

namespace {

bool NamesAnAmdGpu(const LogFact& f) {
  return f.kind == "gfx" || f.kind == "rocm" || (f.kind == "gpu" && f.vendor == GpuVendor::kAmd);
}

bool NamesAnNvidiaGpu(const LogFact& f) {
  return f.kind == "sm" || f.kind == "cuda" || f.kind == "zluda" ||
         (f.kind == "gpu" && f.vendor == GpuVendor::kNvidia);
}

}  // namespace

// HIP ports of CUDA programs (ggml's llama.cpp, whisper.cpp and stable-diffusion.cpp, koboldcpp) keep
// CUDA's words in their messages: "CUDA error: invalid device function" on a Radeon. When the log's facts
// name AMD GPUs or ROCm and nothing of NVIDIA's (no NVIDIA GPU, CUDA target or version, no ZLUDA, which
// runs CUDA programs on AMD with their own fixes), a cuda.X match is read as its HIP twin hip.X, where the
// catalog has one: its fix is the AMD one.
void LogScanner::ReadCudaNamesAsHipOnAmdLogs() {
  const bool amd = std::any_of(facts_.begin(), facts_.end(), NamesAnAmdGpu);
  const bool nvidia = std::any_of(facts_.begin(), facts_.end(), NamesAnNvidiaGpu);
  if (!amd || nvidia) return;
  for (ExplainMatch& m : matches_) {
    if (!m.entry->id.starts_with("cuda.")) continue;
    const std::string twin = "hip." + m.entry->id.substr(5);
    for (const ExplainEntry& e : catalog_.entries)
      if (e.id == twin && e.refines.empty()) m.entry = &e;
  }
}

void RankExplainMatches(std::vector<ExplainMatch>& matches) {
  std::stable_sort(matches.begin(), matches.end(), [](const ExplainMatch& a, const ExplainMatch& b) {
    if (a.entry->severity != b.entry->severity)
      return static_cast<int>(a.entry->severity) > static_cast<int>(b.entry->severity);
    if (a.entry->priority != b.entry->priority) return a.entry->priority > b.entry->priority;
    return a.first_line < b.first_line;
  });
}

void LogScanner::Trim() {
  const uint64_t buf_end = buf_start_ + buf_.size();
  const uint64_t keep = kWindowBefore + prefilter_->automaton->max_literal_length() + 1;
  uint64_t cut = buf_end > keep ? buf_end - keep : 0;
  if (pending_head_ < pending_.size()) {
    uint64_t b = pending_[pending_head_].begin;
    cut = std::min(cut, b > kWindowBefore ? b - kWindowBefore : 0);
  }
  if (cut <= buf_start_ + (64u << 10)) return;  // move memory only in big steps
  CountNewlinesUpTo(cut);
  buf_.erase(0, static_cast<size_t>(cut - buf_start_));
  buf_start_ = cut;
}

std::vector<ExplainMatch> ScanText(const ExplainCatalog& catalog, std::string_view text) {
  return ScanText(std::make_shared<const ExplainPrefilter>(catalog, false), text);
}

std::vector<ExplainMatch> ScanText(std::shared_ptr<const ExplainPrefilter> prefilter, std::string_view text) {
  LogScanner scanner(std::move(prefilter));
  scanner.Feed(text);
  scanner.Finish();
  return scanner.matches();
}

}  // namespace gpudoctor
