// `gpudoctor db show` and `gpudoctor db lint DIR`: load the knowledge base (built in, or a folder laid
// over it), summarize it with knowledge/knowledge_summary.h, and print the summary or the problems.
#include "cli/db_command.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/flag_values.h"
#include "cli/output.h"
#include "core/calendar_date.h"
#include "explain/explain_catalog.h"
#include "knowledge/knowledge_lint.h"
#include "knowledge/knowledge_loader.h"
#include "knowledge/knowledge_summary.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

Json SummaryJson(const KnowledgeSummary& s) {
  Json sections = Json::array();
  for (const SectionCount& c : s.sections) {
    sections.push_back(Json{{"section", c.section},
                            {"entries", c.entries},
                            {"unconfirmed", c.unconfirmed},
                            {"undated", c.undated}});
  }
  Json by_file = Json::array();
  for (const FileCount& f : s.by_file) {
    by_file.push_back(
        Json{{"file", f.file},
             {"entries", f.entries},
             {"confirmed", f.confirmed},
             {"oldest_checked", f.oldest_checked.empty() ? Json(nullptr) : Json(f.oldest_checked)}});
  }
  return Json{{"as_of", s.as_of.empty() ? Json(nullptr) : Json(s.as_of)},
              {"origin", s.origin},
              {"files", s.files},
              {"entries", s.entries},
              {"sections", sections},
              {"by_file", by_file}};
}

std::string Padded(size_t n, size_t width) {
  std::string t = std::to_string(n);
  return std::string(width > t.size() ? width - t.size() : 0, ' ') + t;
}

// Per file: how many entries were compared with their source (no confirmed = false) and the oldest
// checked date, so a current as-of date cannot hide an old or unconfirmed file.
std::string FilesText(const KnowledgeSummary& s) {
  std::string out = "  file                      entries  confirmed  oldest checked\n";
  for (const FileCount& f : s.by_file) {
    std::string name = f.file;
    name.resize(std::max<size_t>(name.size(), 24), ' ');  // the longest: addon_libraries.toml and kin
    const size_t percent = f.entries == 0 ? 100 : (f.confirmed * 100) / f.entries;
    out += "  " + name + "  " + Padded(f.entries, 7) + "  " + Padded(percent, 8) + "%  " +
           (f.oldest_checked.empty() ? std::string("none") : f.oldest_checked) + "\n";
  }
  return out;
}

std::string SummaryText(const KnowledgeSummary& s) {
  std::string out = "Knowledge base\n";
  out += "  As of    " + (s.as_of.empty() ? std::string("unknown (no entry has a checked date)") : s.as_of) +
         "\n";
  out += "  Origin   " + s.origin + "\n";
  out += "  Files    " + std::to_string(s.files.size()) + "\n";
  out += "  Entries  " + std::to_string(s.entries) + "\n\n";
  out += "  section                   entries  unconfirmed  no checked date\n";
  for (const SectionCount& c : s.sections) {
    std::string name = c.section;
    name.resize(std::max<size_t>(name.size(), 24), ' ');  // the longest: nvidia_open_modules_only
    auto num = [](size_t n, size_t width) {
      std::string t = std::to_string(n);
      return std::string(width > t.size() ? width - t.size() : 0, ' ') + t;
    };
    out += "  " + name + "  " + num(c.entries, 7) + "  " + num(c.unconfirmed, 11) + "  " +
           num(c.undated, 15) + "\n";
  }
  return out + "\n" + FilesText(s);
}

Json ErrorsJson(const std::vector<KnowledgeError>& list) {
  Json out = Json::array();
  for (const KnowledgeError& e : list) {
    out.push_back(Json{{"file", e.file}, {"line", e.line}, {"message", e.message}});
  }
  return out;
}

}  // namespace

std::string DbCommand::Description() const {
  return "The knowledge base behind check's advice (data/*.toml: GPUs, ROCm and CUDA releases, PyTorch "
         "wheels and routes, overrides), compiled into the binary. Every entry names its source and the day "
         "a person last checked it there; the newest such day is the database's \"as of\" date.\n\n"
         "  db show [--db DIR]   the as-of date, where the data came from, the entries per section, and "
         "per file the share of entries confirmed (compared with their source: no confirmed = false) and "
         "the oldest checked date\n"
         "  db lint DIR          check a data folder before using it with --db DIR: every file's schema "
         "and sources, NVIDIA driver versions written as nvidia-smi prints them, the dates, and the "
         "invariants across files (each wheel's ROCm/CUDA in the release tables, driver floors rising with "
         "CUDA, every index URL under a known [[package_index]], release dates in order, no GPU listed "
         "before the release that added it, a since inside its series, no wheel carrying a target its "
         "torch release's builds lacked, no TheRock target both release-ready and build-only), and the "
         "explain catalog in DIR/explain/ when there is one (schema, sources, a checked date on every "
         "entry, none after today). An entry without a checked date, or whose note says it was not "
         "verified but lacks confirmed = false, is an error; a checked date after today or more than " +
         std::to_string(kCheckedMaxAgeDays) +
         " days old is a warning. Problems are printed as FILE:LINE: message; nothing is changed.\n\n"
         "--db DIR lays the folder's *.toml files over the built-in ones: a file replaces the built-in file "
         "of the same name, so a newer data/ folder of the project's repository can be dropped in without a "
         "rebuild. How a maintainer refreshes the data: docs/knowledge-base.md.\n\n"
         "Exit codes: show 0; lint 0 clean, 1 warnings only (a checked date after today or more than " +
         std::to_string(kCheckedMaxAgeDays) +
         " days old), 2 errors, 3 the folder could not be read.\n\n"
         "Examples:\n"
         "  gpudoctor db show\n"
         "  gpudoctor db show --db ./data --json\n"
         "  gpudoctor db lint ./data\n"
         "  gpudoctor db lint ~/Downloads/gpudoctor-data && gpudoctor check --db ~/Downloads/gpudoctor-data";
}

void DbCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("ACTION", &action_, "show or lint", true);
  flags.Positional("DIR", &dir_, "lint: the data folder to check (its *.toml files)", false);
  flags.String("--db", &db_, "DIR",
               "show: the built-in knowledge base with DIR's *.toml files laid over it.");
  flags.String("--today", &today_, "YYYY-MM-DD",
               "lint: judge checked dates against this day instead of the clock's (reproducible runs).");
  flags.Bool("--json", &json_, "Print the result as JSON.");
}

int DbCommand::Run(const CliContext& ctx) {
  // Read for both actions, though only lint uses it: a bad day is a mistake whichever action is named.
  if (auto today = DateFlag("--today", today_); !today) return ReportError(ctx.err, today.error());
  if (action_ == "show") return Show(ctx);
  if (action_ == "lint") return Lint(ctx);
  return ReportError(ctx.err, UserError("unknown db action \"" + action_ + "\"",
                                        "use `gpudoctor db show` or `gpudoctor db lint DIR`"));
}

int DbCommand::Show(const CliContext& ctx) {
  if (!dir_.empty())
    return ReportError(ctx.err,
                       UserError("db show takes no folder argument", "use `gpudoctor db show --db DIR`"));
  auto db = db_.empty() ? LoadEmbeddedKnowledge() : LoadKnowledgeFromDir(db_);
  if (!db.ok()) return ReportError(ctx.err, db.error().With("loading the knowledge base"));
  KnowledgeSummary s = SummarizeKnowledge(*db);
  if (json_) {
    Json doc{{"schema", "gpudoctor.db"}, {"schema_version", 1}, {"knowledge", SummaryJson(s)}};
    WriteAll(ctx.out, doc.dump(2) + "\n");
  } else {
    WriteAll(ctx.out, SummaryText(s));
  }
  return kExitOk;
}

int DbCommand::Lint(const CliContext& ctx) {
  if (dir_.empty())
    return ReportError(ctx.err,
                       UserError("db lint needs the data folder to check", "gpudoctor db lint ./data"));
  auto files = ReadKnowledgeDir(dir_);
  if (!files) return ReportError(ctx.err, files.error());
  std::set<std::string> names;
  for (const KnowledgeFileText& f : *files) {
    size_t slash = f.name.find_last_of("/\\");
    names.insert(slash == std::string::npos ? f.name : f.name.substr(slash + 1));
  }
  KnowledgeLoad load = ParseKnowledge(OverlayKnowledgeTexts(std::move(*files)));
  load.db.origin = dir_ + " over embedded";
  const std::string today = today_.empty() ? DateOf(std::chrono::system_clock::now()) : today_;
  ProvenanceLint provenance = LintProvenance(load.db, names, today);
  for (KnowledgeError& e : provenance.errors) e.file = dir_ + "/" + e.file;
  load.errors.insert(load.errors.end(), provenance.errors.begin(), provenance.errors.end());
  std::vector<KnowledgeError> warnings = std::move(provenance.warnings);
  for (KnowledgeError& w : warnings) w.file = dir_ + "/" + w.file;
  // The explain catalog beside the tables (DIR/explain/*.toml): its schema, sources and checked dates.
  const std::string explain_dir = dir_ + "/explain";
  std::error_code ec;
  if (std::filesystem::is_directory(explain_dir, ec)) {
    auto explain_files = ReadKnowledgeDir(explain_dir);
    if (!explain_files) return ReportError(ctx.err, explain_files.error());
    for (const KnowledgeFileText& f : *explain_files) {
      size_t slash = f.name.find_last_of("/\\");
      names.insert("explain/" + (slash == std::string::npos ? f.name : f.name.substr(slash + 1)));
    }
    ExplainCatalogLoad explain = ParseExplainCatalog(*explain_files);
    std::vector<KnowledgeError> late = ExplainDatesAfter(explain.catalog, today);
    for (KnowledgeError& e : late) e.file = explain_dir + "/" + e.file;
    load.errors.insert(load.errors.end(), explain.errors.begin(), explain.errors.end());
    load.errors.insert(load.errors.end(), late.begin(), late.end());
    for (const ExplainEntry& e : explain.catalog.entries) {
      if (e.checked > today) continue;  // an error above
      std::string w = CheckedDateWarning("entry '" + e.id + "'", e.checked, today);
      if (!w.empty()) warnings.push_back(KnowledgeError{explain_dir + "/" + e.file, e.line, std::move(w)});
    }
  }
  const int code = !load.errors.empty() ? kExitErrors : !warnings.empty() ? kExitWarnings : kExitOk;
  KnowledgeSummary s = SummarizeKnowledge(load.db);
  if (json_) {
    Json doc{{"schema", "gpudoctor.db-lint"},
             {"schema_version", 1},
             {"folder", dir_},
             {"exit_code", code},
             {"errors", ErrorsJson(load.errors)},
             {"warnings", ErrorsJson(warnings)},
             {"knowledge", SummaryJson(s)}};
    WriteAll(ctx.out, doc.dump(2) + "\n");
    return code;
  }
  std::string out;
  for (const KnowledgeError& e : load.errors) out += "error: " + e.ToString() + "\n";
  for (const KnowledgeError& w : warnings) out += "warning: " + w.ToString() + "\n";
  out += dir_ + ": " + std::to_string(load.errors.size()) + " error(s), " + std::to_string(warnings.size()) +
         " warning(s) in " + std::to_string(names.size()) + " file(s)";
  out += load.errors.empty() ? "; usable with --db " + dir_ + "\n" : "; fix the errors before using it\n";
  if (load.errors.empty()) out += "\n" + SummaryText(s);
  WriteAll(ctx.out, out);
  return code;
}

}  // namespace gpudoctor
