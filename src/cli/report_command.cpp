// `gpudoctor report`: reads the saved verify/bench files first (a bad file fails fast, before any
// probing), acquires the snapshot and runs the rules as `check` does, renders the page
// (report/html_report.h) and writes it whole or not at all (never over an existing file without
// --force), or to stdout with `-o -`.
#include "cli/report_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "bench/bench_json.h"
#include "cli/output.h"
#include "core/json_reader.h"
#include "gates/verify_json.h"
#include "knowledge/knowledge_loader.h"
#include "platform/user_file.h"
#include "report/html_report.h"
#include "rules/rules.h"
#include "rules/shell.h"
#include "tune/tune_json.h"

namespace gpudoctor {
namespace {

std::string UtcNow() {
  using namespace std::chrono;
  const auto now = floor<seconds>(system_clock::now());
  const auto day = floor<days>(now);
  const year_month_day ymd{day};
  const hh_mm_ss<seconds> t{now - day};
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02d:%02d UTC", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(t.hours().count()), static_cast<int>(t.minutes().count()));
  return buf;
}

// The flag of `report` that takes a document of `kind`; "" for a kind it does not take.
std::string FlagFor(std::string_view kind) {
  if (kind == "verify") return "--verify";
  if (kind == "bench") return "--bench";
  if (kind == "snapshot") return "--from";
  return "";
}

// A document of another kind that `report` takes, given to `flag`: the error that names the right flag.
std::optional<Error> GivenToTheWrongFlag(const std::string& text, const std::string& origin,
                                         std::string_view wanted_kind) {
  auto doc = ParseJsonObject(text, origin, "");
  if (!doc.ok()) return std::nullopt;  // the codec says what is wrong with it
  const DocumentSchema schema = ReadDocumentSchema(*doc);
  const std::string flag = FlagFor(schema.kind);
  if (schema.kind == wanted_kind || flag.empty()) return std::nullopt;
  return UserError(origin + ": not " + DescribeDocumentKind(wanted_kind) + ": it is " +
                   DescribeDocumentKind(schema.kind) + " (give it with " + flag + ")");
}

}  // namespace

std::string ReportCommand::Description() const {
  return "Write one self-contained HTML page about this machine: a summary, the machine (OS, CPU, memory, "
         "GPUs with their architecture, VRAM and driver, runtimes, Python environments and PyTorch), the "
         "findings of `gpudoctor check` with their evidence and fixes, and, from files saved earlier, the "
         "gates of `gpudoctor verify --json`, the charts of `gpudoctor bench --json` and the knob tables of "
         "`gpudoctor tune --json`. The page needs "
         "no network and runs no script: inline CSS and SVG only. Details: docs/report.md.\n\n"
         "Exit codes: 0 the report was written, 3 it was not (an existing file without --force, a missing, "
         "malformed or wrong kind of input file). The page itself carries the verdicts.\n\n"
         "Examples:\n"
         "  gpudoctor report -o report.html                      this machine, findings only\n"
         "  gpudoctor verify --json > verify.json\n"
         "  gpudoctor bench --json > bench.json\n"
         "  gpudoctor report -o report.html --verify verify.json --bench bench.json\n"
         "  gpudoctor tune --json > tune.json; gpudoctor report -o report.html --tune tune.json\n"
         "  gpudoctor report -o report.html --force              replace an existing report.html\n"
         "  gpudoctor report -o - --from snap.json > report.html  a saved snapshot, page on stdout\n"
         "  gpudoctor report -o r.html --sysroot ./machine       a machine recorded with `gpudoctor gather`";
}

void ReportCommand::DefineFlags(FlagSet& flags) {
  flags.String("-o,--output", &output_, "FILE",
               "Write the page to FILE (never over an existing file; see --force). `-` writes it to stdout.");
  flags.String("--verify", &verify_, "FILE",
               "Add the gates from FILE, written by `gpudoctor verify --json`.");
  flags.String("--bench", &bench_, "FILE", "Add the charts from FILE, written by `gpudoctor bench --json`.");
  flags.String("--tune", &tune_, "FILE",
               "Add the knob tables from FILE, written by `gpudoctor tune --json`.");
  flags.Bool("--force", &force_, "Let -o replace an existing file.");
  flags.Choice("--shell", &shell_, {"auto", "bash", "powershell", "cmd"},
               "Shell to write fixes for (default auto, as `check`).");
  flags.String("--db", &db_, "DIR",
               "Load the knowledge base from the *.toml files in DIR (as `check --db`).");
  source_.Define(flags);
}

int ReportCommand::Run(const CliContext& ctx) {
  if (output_.empty())
    return ReportError(ctx.err, UserError("no output file: give -o FILE.html (or -o - for stdout)",
                                          "gpudoctor report -o report.html"));
  const bool to_stdout = output_ == "-";
  std::error_code ec;
  if (!to_stdout && !force_ && std::filesystem::exists(output_, ec))
    return ReportError(ctx.err, UserError(output_ + " already exists; nothing was written",
                                          "choose another file name, or add --force to replace it"));

  HtmlReportInput input;
  if (!verify_.empty()) {
    auto text = ReadUserFile(verify_, 64u << 20);
    if (!text.ok()) return ReportError(ctx.err, text.error().With("--verify"));
    if (auto wrong = GivenToTheWrongFlag(*text, verify_, "verify")) return ReportError(ctx.err, *wrong);
    auto doc = VerifyReportFromJson(*text, verify_);
    if (!doc.ok()) return ReportError(ctx.err, doc.error());
    input.verify = std::move(*doc);
    input.verify_origin = verify_;
  }
  if (!bench_.empty()) {
    auto text = ReadUserFile(bench_, 64u << 20);
    if (!text.ok()) return ReportError(ctx.err, text.error().With("--bench"));
    if (auto wrong = GivenToTheWrongFlag(*text, bench_, "bench")) return ReportError(ctx.err, *wrong);
    auto doc = BenchReportFromJson(*text, bench_);
    if (!doc.ok()) return ReportError(ctx.err, doc.error());
    input.bench = std::move(*doc);
    input.bench_origin = bench_;
  }
  if (!tune_.empty()) {
    auto text = ReadUserFile(tune_, 64u << 20);
    if (!text.ok()) return ReportError(ctx.err, text.error().With("--tune"));
    auto doc = TuneResultFromJson(*text, tune_);
    if (!doc.ok()) return ReportError(ctx.err, doc.error());
    input.tune = std::move(*doc);
    input.tune_origin = tune_;
  }

  auto db = db_.empty() ? LoadEmbeddedKnowledge() : LoadKnowledgeFromDir(db_);
  if (!db.ok()) return ReportError(ctx.err, db.error().With("loading the knowledge base"));
  auto snap = source_.Acquire(ctx, &db.value());
  if (!snap.ok()) return ReportError(ctx.err, snap.error());

  input.findings = RunAllRules(*snap, *db, RuleOptions{});
  input.knowledge_as_of = db->AsOf();
  input.shell = shell_ == "auto" ? DetectShell(snap->os.family, ctx.env) : *ShellFromString(shell_);
  if (!source_.from.empty())
    input.machine_source = "snapshot file " + source_.from;
  else if (!source_.sysroot.empty() && source_.sysroot != "/")
    input.machine_source = "recorded machine " + source_.sysroot;
  else
    input.machine_source = "this machine";
  input.snapshot = std::move(*snap);
  input.generated_at = UtcNow();

  const std::string html = RenderHtmlReport(input);
  if (to_stdout) {
    WriteAll(ctx.out, html);
    return kExitOk;
  }
  auto st = WriteFileAtomically(output_, html, force_);
  if (!st.ok()) return ReportError(ctx.err, st.error());
  WriteAll(ctx.err, "report written to " + output_ + "\n");
  return kExitOk;
}

}  // namespace gpudoctor
