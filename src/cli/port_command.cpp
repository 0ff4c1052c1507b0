// `gpudoctor port`: parses the flags into a PortJob, loads the mapping table, runs the job with the CLI's
// whole-file writer, prints the translation and the report, and picks the exit code (docs/port.md).
#include "cli/port_command.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli/flag_values.h"
#include "cli/output.h"
#include "cli/private_folder.h"
#include "core/strings.h"
#include "platform/process.h"
#include "platform/terminal.h"
#include "platform/user_file.h"
#include "port/cuda_lexer.h"
#include "port/hipcc_check.h"
#include "port/port_map.h"
#include "port/port_report.h"
#include "port/port_run.h"

namespace gpudoctor {

namespace {
// Stopped by Ctrl-C or SIGTERM: the shell's code for a run ended by SIGINT (128 + 2).
constexpr int kExitInterrupted = 130;

// --check-build's compiler: the hipcc on PATH, in HIP_PATH, ROCM_PATH, /opt/rocm or /usr/bin.
Result<std::string> FindHipccOf(const CliContext& ctx) {
  HipccSearch search;
  search.path_env = ctx.env.Get("PATH").value_or("");
  search.hip_path = ctx.env.Get("HIP_PATH").value_or("");
  search.rocm_path = ctx.env.Get("ROCM_PATH").value_or("");
#ifdef _WIN32
  search.list_separator = ';';
#endif
  search.is_file = [](const std::string& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
  };
  return FindHipcc(search);
}

struct InstalledHip {
  Version version;
  std::string hipcc;
  std::string header;
};

// The HIP installed here, for a port without --hip-version: the release its hipcc's headers state
// (hip/hip_version.h beside hipcc, or beside the file a linked hipcc points at); nullopt without one.
std::optional<InstalledHip> FindInstalledHip(const CliContext& ctx) {
  auto hipcc = FindHipccOf(ctx);
  if (!hipcc.ok()) return std::nullopt;
  std::error_code ec;
  const std::string resolved = std::filesystem::canonical(*hipcc, ec).string();
  std::vector<std::string> compilers = {*hipcc};
  if (!ec && resolved != *hipcc) compilers.push_back(resolved);  // a linked hipcc: its target's headers too
  for (const std::string& compiler : compilers) {
    const std::string header = HipVersionHeaderOf(compiler);
    std::ifstream in(header, std::ios::binary);
    if (!in) continue;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (auto v = ParseHipVersionHeader(text)) return InstalledHip{*v, *hipcc, header};
  }
  return std::nullopt;
}
}  // namespace

std::string PortCommand::Description() const {
  return "Translate CUDA C++ (a file, or every .cu/.cuh/.cpp/.h file of a folder) to HIP, token by token "
         "from "
         "one mapping table (runtime, driver, cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER, cuDNN -> MIOpen, "
         "NCCL -> "
         "RCCL, CUB, Thrust, headers, types, enums, macros, warp intrinsics, bf16, cache-hinted loads and "
         "stores). It also adds what nvcc gave implicitly: #include <hip/hip_runtime.h> where kernels, "
         "launches or "
         "device types are used, HIP's header guards for the CUDA ones helper code tests "
         "(__DRIVER_TYPES_H__), "
         "the const void* cast of a kernel given to hipFuncSetAttribute and the like; cg::reduce and "
         "cg::plus "
         "(absent from HIP) become a shuffle reduction over the tile. Comments, strings and layout are kept; "
         "names the file declares itself and names qualified by your own namespaces are never renamed. The "
         "report "
         "gives, per file and in total, the references converted by API family and, with line:column and "
         "what to "
         "do: APIs HIP lacks, APIs newer than --hip-version (__nv_bfloat162 with HIP 5.2; where that release "
         "has an equivalent, "
         "such as hip_bfloat16 or sharedMemPerBlock, it is written instead), 32-lane "
         "assumptions "
         "(tiles, shared arrays and lane arithmetic of 32, lane masks given to warp intrinsics), code whose "
         "result "
         "a 64-lane wavefront changes, __CUDA_ARCH__ tests, ballots kept in 32 bits, inline PTX, texture and "
         "surface references, cooperative-groups features HIP lacks, __launch_bounds__ above 1024, and "
         "CUDA-only "
         "flags in the folder's CMakeLists.txt and Makefiles (reported, not rewritten).\n\n"
         "Examples:\n"
         "  gpudoctor port kernel.cu > kernel.hip.cu        the translation on stdout, the report on stderr\n"
         "  gpudoctor port src/ -o src-hip                  a folder into a new folder\n"
         "  gpudoctor port src/ --in-place --backup         rewrite the files, keeping FILE.orig\n"
         "  gpudoctor port src/ --examine --json            the report only, as JSON\n"
         "  gpudoctor port kernel.cu --hip-version 5.2 -o k.hip.cu   written for HIP 5.2 (Debian 12)\n"
         "  gpudoctor port src/ -o src-hip --check-build    compile each translated source with hipcc\n\n"
         "Exit codes: 0 nothing to look at, 1 warnings (hazards to check), 2 errors (APIs HIP lacks, inline "
         "PTX, "
         "...: the result will not build or run as it is; with --check-build, a file hipcc does not "
         "compile), 3 bad "
         "flags or a file or folder that could not be read, 130 stopped by Ctrl-C or SIGTERM (between two "
         "files: "
         "each file written is whole; -o ... --skip-existing, or --in-place again, finishes the run).";
}

void PortCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("path", &input_, "A CUDA source file or a folder of them.", true);
  flags.String("-o,--output", &output_, "OUT",
               "Write the translation to OUT: a file for a file, a new folder (same layout) for a folder.");
  flags.Bool("--in-place", &in_place_,
             "Rewrite the files themselves (each through a temporary file and a rename).");
  flags.Bool("--backup", &backup_, "With --in-place: keep each original as FILE.orig.");
  flags.Bool("--examine", &examine_, "Report only; write nothing.");
  flags.String("--hip-version", &hip_version_, "X.Y",
               "Translate for this HIP release: what it lacks is written as what it has where there is an "
               "equivalent (hip_bfloat16, sharedMemPerBlock, the meta_group_* expressions), else an error in "
               "the report. Default: the release of the hipcc found (its hip/hip_version.h), said on stderr; "
               "newest: every HIP API, whatever is installed.");
  flags.Bool(
      "--launch-macro", &launch_macro_,
      "Rewrite kernel<<<grid, block, shared, stream>>>(args) as hipLaunchKernelGGL(...) (<<<>>> is valid "
      "HIP and kept by default).");
  flags.Bool("--force", &force_, "Replace existing output (and .orig) files.");
  flags.Bool("--skip-existing", &skip_existing_,
             "With -o: keep the output files that exist and write the others, to finish a run that was "
             "interrupted (each file is written whole, so one that exists is complete).");
  flags.String("--threads", &threads_, "N",
               "Translate on N threads (default: one per core); the output is the same.");
  flags.Bool(
      "--check-build", &check_build_,
      "With -o or --in-place: compile each translated source with the hipcc found on PATH, in HIP_PATH, "
      "ROCM_PATH, /opt/rocm or /usr/bin (hipcc -c --offload-arch=ARCH) and report per file whether it "
      "builds.");
  flags.String("--offload-arch", &offload_arch_, "ARCH",
               "The GPU target of --check-build (default gfx1030).");
  flags.Bool("--json", &json_, "Print the report as JSON (docs/port.md).");
  flags.String("--db", &db_, "DIR", "Use the mapping table in DIR/port/*.toml instead of the built-in one.");
  flags.Excludes("--in-place", "--output");
}

// The report of the files done, and how to go on: -o with --skip-existing; --in-place as it was (what is
// HIP already is left as it is).
int PortCommand::Interrupted(const CliContext& ctx, PortReport& report) const {
  report.tool_version = GPUDOCTOR_VERSION;
  WriteAll(ctx.out, json_ ? RenderPortJson(report) : RenderPortText(report));
  // The same translation flags: a run finished with others would leave a tree translated two ways.
  std::string again = "gpudoctor port " + input_;
  if (!output_.empty()) again += " -o " + output_ + " --skip-existing";
  if (in_place_) again += backup_ ? " --in-place --backup" : " --in-place";
  if (examine_) again += " --examine";
  if (launch_macro_) again += " --launch-macro";
  if (!hip_version_.empty()) again += " --hip-version " + hip_version_;
  if (!db_.empty()) again += " --db " + db_;
  if (check_build_) again += " --check-build --offload-arch " + offload_arch_;
  WriteAll(ctx.err, "port: interrupted; " + std::to_string(report.FilesWritten()) + " of " +
                        std::to_string(report.sources) + " source file(s) written. To finish: " + again +
                        "\n");
  return kExitInterrupted;
}

// The HIP release to translate for: --hip-version's, none for newest (every API the table knows), else the
// one installed here, said on stderr (issue 32: Debian 12's hipcc is HIP 5.2).
Result<std::optional<Version>> PortCommand::ChosenHipVersion(const CliContext& ctx) const {
  if (hip_version_ == "newest") return std::optional<Version>{};
  if (!hip_version_.empty()) {
    if (auto v = Version::Parse(hip_version_)) return std::optional<Version>{*v};
    return UserError("--hip-version " + hip_version_ + " is not a version",
                     "write it as 5.2 or 6.4.1, or newest");
  }
  auto installed = FindInstalledHip(ctx);
  if (!installed) return std::optional<Version>{};
  WriteAll(ctx.err, "port: translating for HIP " + installed->version.ToString() + ", the release of " +
                        installed->hipcc + " (" + installed->header +
                        "); --hip-version X.Y or --hip-version newest translates for another\n");
  return std::optional<Version>{installed->version};
}

int PortCommand::Run(const CliContext& ctx) {
  PortJob job;
  job.input = input_;
  job.output = output_;
  job.in_place = in_place_;
  job.backup = backup_;
  job.examine = examine_;
  job.force = force_;
  job.skip_existing = skip_existing_;
  job.options.launch_macro = launch_macro_;
  // The flags' values first: a bad one stops the run before hipcc is looked for.
  auto threads = WholeFlag("--threads", threads_, 1, 1024);
  if (!threads.ok()) return ReportError(ctx.err, threads.error());
  if (*threads) job.threads = static_cast<unsigned>(**threads);
  auto hip_version = ChosenHipVersion(ctx);
  if (!hip_version.ok()) return ReportError(ctx.err, hip_version.error());
  job.options.hip_version = *hip_version;
  if (json_ && output_.empty() && !in_place_ && !examine_ && !std::filesystem::is_directory(input_))
    return ReportError(ctx.err,
                       UserError("--json prints the report on stdout, so the translation needs -o FILE, "
                                 "--in-place or --examine"));

  if (check_build_ && output_.empty() && !in_place_)
    return ReportError(
        ctx.err, UserError("--check-build compiles the translated files, so it needs -o or --in-place"));
  std::string hipcc;
  if (check_build_) {
    auto found = FindHipccOf(ctx);
    if (!found.ok()) return ReportError(ctx.err, found.error());
    hipcc = *found;
  }

  PortMap from_dir;
  const PortMap* map = nullptr;
  if (db_.empty()) {
    auto embedded = EmbeddedPortMap();
    if (!embedded.ok()) return ReportError(ctx.err, embedded.error());
    map = *embedded;
  } else {
    auto loaded = LoadPortMapFromDir(db_ + "/port");
    if (!loaded.ok()) return ReportError(ctx.err, loaded.error());
    from_dir = std::move(*loaded);
    map = &from_dir;
  }

  PortIo io;
  io.read = [](const std::string& path) { return ReadUserFile(path, kMaxSourceBytes + 1); };
  io.write = [](const std::string& path, const std::string& text, bool overwrite) {
    return WriteFileAtomically(path, text, overwrite);
  };
  // Ctrl-C and SIGTERM stop the run between two files (issue 35, attempts 119-120).
  InstallStopRequestHandler();
  io.stop_requested = [] { return StopRequested(); };
  auto run = RunPort(job, *map, io);
  if (!run.ok()) return ReportError(ctx.err, run.error());
  if (run->report.interrupted) return Interrupted(ctx, run->report);
  run->report.tool_version = GPUDOCTOR_VERSION;
  if (check_build_) {
    BuildCheckRequest request{hipcc, offload_arch_, {}, in_place_, ""};
    if (!output_.empty() && std::filesystem::is_directory(output_)) request.include_dirs.push_back(output_);
    const auto scratch = NewPrivateFolder("gpudoctor-port-");
    if (scratch) request.temp_dir = scratch->string();
    CheckBuild(request, RunProcess, run->report);
    std::error_code ec;
    if (scratch) std::filesystem::remove_all(*scratch, ec);
  }
  const bool to_stdout = !examine_ && !in_place_ && output_.empty();
  if (to_stdout) {
    if (!WriteAll(ctx.out, run->translation)) return kExitOk;
    WriteAll(ctx.err, RenderPortText(run->report));
  } else {
    WriteAll(ctx.out, json_ ? RenderPortJson(run->report) : RenderPortText(run->report));
  }
  return PortExitCode(run->report);
}

}  // namespace gpudoctor
