// `gpudoctor explain`: wires the input (arguments, a file or stdin, streamed in chunks) to the log
// scanner, the machine's snapshot and the knowledge base to the report, and picks the exit code.
#include "cli/explain_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include "cli/output.h"
#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "knowledge/knowledge_loader.h"
#include "platform/terminal.h"

namespace gpudoctor {
namespace {

constexpr size_t kChunkBytes = 1u << 20;
// How long a FIFO named with --file may go without its writer writing (issue 35).
constexpr std::chrono::seconds kFifoWait{10};
constexpr uint64_t kProgressFromBytes = 16u << 20;  // smaller inputs finish before anyone looks

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f != nullptr) std::fclose(f);
  }
};

// Streams `in` through the scanner; progress on stderr when it is a terminal and the input is big.
Status ScanStream(std::FILE* in, const std::string& name, uint64_t expected_bytes, const CliContext& ctx,
                  LogScanner& scanner) {
  std::unique_ptr<char[]> chunk(new char[kChunkBytes]);
  auto last = std::chrono::steady_clock::now();
  bool shown = false;
  uint64_t total = 0;
  for (;;) {
    size_t n = std::fread(chunk.get(), 1, kChunkBytes, in);
    if (n > 0) {
      scanner.Feed(std::string_view(chunk.get(), n));
      total += n;
    }
    if (n < kChunkBytes) {
      if (std::ferror(in)) {
        if (shown) WriteAll(ctx.err, "\r\x1b[K");
        return EnvError("reading " + name + " failed after " + std::to_string(total) + " bytes");
      }
      if (std::feof(in)) break;
    }
    auto now = std::chrono::steady_clock::now();
    if (ctx.stderr_is_tty && total >= kProgressFromBytes && now - last > std::chrono::milliseconds(250)) {
      last = now;
      shown = true;
      std::string line = "\rexplain: " + std::to_string(total >> 20) + " MiB";
      if (expected_bytes > 0) line += " of " + std::to_string(expected_bytes >> 20) + " MiB";
      WriteAll(ctx.err, line + " scanned");
    }
  }
  if (shown) WriteAll(ctx.err, "\r\x1b[K");
  return Ok{};
}

// The built-in catalog, or DIR/explain of --db DIR (the built-in one when DIR has no explain folder).
Result<ExplainCatalog> LoadCatalog(const std::string& db, const CliContext& ctx) {
  if (db.empty()) return LoadEmbeddedExplainCatalog();
  std::error_code ec;
  const std::string dir = db + "/explain";
  if (std::filesystem::is_directory(dir, ec)) return LoadExplainCatalogFromDir(dir);
  WriteAll(ctx.err, "note: " + dir + " does not exist; using the built-in explain catalog\n");
  return LoadEmbeddedExplainCatalog();
}

}  // namespace

std::string ExplainCommand::Description() const {
  return "Find every known GPU, driver, framework, kernel-log, Windows-loader and pip error in a message or "
         "a "
         "whole log, and explain each: what it means, how to fix it, and the facts of this machine that "
         "matter "
         "(its GPU target, the HSA override that would work, the wheel built for it, its memory). A log of "
         "any "
         "size is streamed, never loaded whole. When nothing matches, it says so and prints the facts to "
         "paste "
         "when asking for help; it never guesses.\n\n"
         "Examples:\n"
         "  gpudoctor explain \"hipErrorNoBinaryForGpu: Unable to find code object for all current "
         "devices!\"\n"
         "  gpudoctor explain -f train.log\n"
         "  python train.py 2>&1 | gpudoctor explain\n"
         "  gpudoctor explain -f log.txt --from snap.json   explain for the machine the snapshot came from\n"
         "  gpudoctor explain -f log.txt --json            (schema: docs/explain-json.md)\n"
         "  gpudoctor explain -f log.txt --here            the log is from this machine: use its facts\n\n"
         "The log's own facts (GPU names and targets, driver, ROCm, CUDA, torch, Python, OS, WSL, container, "
         "portable install, application) are listed with their lines; when the log names GPUs this machine "
         "does not have, it is explained for the log's machine, not this one.\n\n"
         "A fix that depends on the GPU's gfx target (a missing code object, an invalid ISA) names the "
         "HSA_OVERRIDE_GFX_VERSION value or the build the knowledge base records for the target the log "
         "states "
         "(this machine's with --here), no override where none is safe, and how to find the target when the "
         "log does not say; it never guesses a value. A fix that is installing the right PyTorch build is "
         "filled "
         "from the log's facts: the variant for its GPU (cuXXX for the compute capability and driver, the "
         "ROCm "
         "build for the gfx target), a release with wheels for its Python, in its OS's shell (PowerShell, a "
         "portable install's own python.exe).\n\n"
         "Exit codes: 0 nothing matched or only information, 1 warnings, 2 errors, 3 input unreadable.";
}

void ExplainCommand::DefineFlags(FlagSet& flags) {
  flags.PositionalList("text", &text_,
                       "The message to explain (several arguments are read as several lines); one argument "
                       "that names a file reads that file, as -f does, and '-' reads standard input.");
  flags.String("-f,--file", &file_, "FILE", "Read the log from FILE ('-' for standard input).");
  flags.Bool("--json", &json_, "Print the report as JSON (docs/explain-json.md).");
  flags.Bool("--here", &here_,
             "The log comes from this machine: use its facts even when the log names other GPUs (by default "
             "a log that names GPUs this machine does not have is explained with the log's own facts).");
  flags.String(
      "--db", &db_, "DIR",
      "Use the knowledge base in DIR (*.toml) and the catalog in DIR/explain instead of the built-in ones.");
  source_.Define(flags);
}

int ExplainCommand::Run(const CliContext& ctx) {
  auto catalog = LoadCatalog(db_, ctx);
  if (!catalog.ok()) return ReportError(ctx.err, catalog.error());
  auto db = db_.empty() ? LoadEmbeddedKnowledge() : LoadKnowledgeFromDir(db_);
  if (!db.ok()) return ReportError(ctx.err, db.error());

  LogScanner scanner(*catalog);
  std::string input_name;
  if (!text_.empty() && !file_.empty())
    return ReportError(ctx.err, UserError("give the message as arguments or with --file, not both"));
  // `gpudoctor explain -` means standard input, as `-f -` does (`cmd | gpudoctor explain -`).
  if (text_.size() == 1 && text_[0] == "-") {
    file_ = "-";
    text_.clear();
  }
  // `gpudoctor explain train.log` means the file, not a one-line message naming it.
  std::error_code file_ec;
  if (text_.size() == 1 && text_[0].find('\n') == std::string::npos &&
      std::filesystem::is_regular_file(text_[0], file_ec)) {
    WriteAll(ctx.err,
             "note: reading the log in the file " + text_[0] + " (the same as -f " + text_[0] + ")\n");
    file_ = text_[0];
    text_.clear();
  }
  if (!text_.empty()) {
    input_name = "the message";
    for (size_t i = 0; i < text_.size(); ++i) scanner.Feed(text_[i] + (i + 1 < text_.size() ? "\n" : ""));
  } else if (!file_.empty() && file_ != "-") {
    input_name = file_;
    auto opened = OpenUserStream(file_, kFifoWait);
    if (!opened.ok()) return ReportError(ctx.err, opened.error());
    std::unique_ptr<std::FILE, FileCloser> in(*opened);
    std::error_code ec;
    uint64_t size = std::filesystem::file_size(file_, ec);
    auto st = ScanStream(in.get(), file_, ec ? 0 : size, ctx, scanner);
    if (!st.ok()) return ReportError(ctx.err, st.error());
  } else {
    input_name = "standard input";
    if (IsTerminal(stdin))
      WriteAll(ctx.err,
               "reading the log from standard input; end it with Ctrl-D (Ctrl-Z then Enter on Windows)\n");
    UseBinaryMode(stdin);
    auto st = ScanStream(stdin, "standard input", 0, ctx, scanner);
    if (!st.ok()) return ReportError(ctx.err, st.error());
  }
  scanner.Finish();

  auto snap = source_.Acquire(ctx, &*db);
  if (!snap.ok()) return ReportError(ctx.err, snap.error());
  ExplainReport report =
      BuildExplainReport(scanner.matches(), scanner.stats(), *snap, *db, scanner.facts(), here_);
  report.tool_version = GPUDOCTOR_VERSION;
  report.input_name = input_name;
  report.machine = !source_.from.empty() ? "the machine of snapshot " + source_.from
                   : !source_.sysroot.empty() && source_.sysroot != "/"
                       ? "the machine recorded in " + source_.sysroot
                       : "this machine";
  if (scanner.stats().regex_failures > 0 && !json_)
    WriteAll(ctx.err, "note: " + std::to_string(scanner.stats().regex_failures) +
                          " line(s) were too complex for the matcher and were skipped\n");
  bool color = ctx.stdout_is_tty && !ctx.env.Has("NO_COLOR");
  WriteAll(ctx.out, json_ ? RenderExplainJson(report) : RenderExplainText(report, color));
  return ExplainExitCode(report);
}

}  // namespace gpudoctor
