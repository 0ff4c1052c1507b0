// `gpudoctor collectives`: parses the flags into a CollectivesRequest, runs it
// (collectives/collectives_runner.h) and prints the report. No benchmark logic lives here.
#include "cli/collectives_command.h"

#include "cli/flag_values.h"
#include "cli/output.h"
#include "collectives/collective_request.h"
#include "collectives/collectives_json.h"
#include "collectives/collectives_report.h"
#include "collectives/collectives_runner.h"
#include "core/strings.h"
#include "platform/process.h"
#include "probe/probe_inputs.h"
#include "topo/machine_pass.h"

namespace gpudoctor {

std::string CollectivesCommand::Description() const {
  return "Measure NCCL (NVIDIA) or RCCL (AMD) collectives, loaded at run time, one process per GPU: "
         "all-reduce, "
         "all-gather, reduce-scatter, broadcast and all-to-all over float32 buffers from 8 B to 1 GiB, with "
         "time, algbw and busbw exactly as nccl-tests computes them, every result checked against the "
         "expected "
         "values; and the GPU-to-GPU copy bandwidth and latency matrices. Started by Open MPI's mpirun or "
         "Slurm's srun, every process is one rank (bootstrapped through MPI, Open MPI only) and rank 0 "
         "prints "
         "the report of all. Details, formulas and the JSON schema: docs/collectives.md.\n\n"
         "Exit codes: 0 all ran and every result was right, 1 a run failed or data came back wrong, 2 no "
         "usable "
         "GPU or library (the report says why), 3 gpudoctor itself failed.\n\n"
         "Examples:\n"
         "  gpudoctor collectives                        every GPU of this machine, sizes 8 B .. 1 GiB x2\n"
         "  gpudoctor collectives --quick                factor 4, fewer iterations\n"
         "  gpudoctor collectives --ops all_reduce --max-bytes 256M\n"
         "  gpudoctor collectives --p2p-only             only the GPU-to-GPU copy matrices\n"
         "  mpirun -np 16 --map-by ppr:8:node gpudoctor collectives --json\n"
         "  srun -N 2 --ntasks-per-node 8 gpudoctor collectives";
}

void CollectivesCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--json", &json_, "Print the report as JSON (schema: docs/collectives.md).");
  flags.Bool("--quick", &quick_, "Sizes by a factor of 4, 5 timed iterations and 2 warm-up ones.");
  flags.String(
      "--ops", &ops_, "LIST",
      "Collectives to run: all_reduce,all_gather,reduce_scatter,broadcast,all_to_all or all (default).");
  flags.String("--min-bytes", &min_bytes_, "SIZE",
               "Smallest size (default 8; K, M, G suffixes are powers of 1024).");
  flags.String("--max-bytes", &max_bytes_, "SIZE",
               "Largest size (default 1G, capped at a quarter of GPU memory).");
  flags.String("--factor", &factor_, "F", "Size step factor (default 2; 4 with --quick).");
  flags.String("--iters", &iters_, "N", "Timed iterations per size (default 20).");
  flags.String("--warmup", &warmup_, "N", "Untimed iterations before each size (default 5).");
  flags.String("--gpus", &gpus_, "N", "Use only the first N GPUs (one machine, default all).");
  flags.Bool("--no-p2p", &no_p2p_, "Leave out the GPU-to-GPU copy matrices.");
  flags.Bool("--p2p-only", &p2p_only_, "Only the GPU-to-GPU copy matrices.");
  flags.String("--p2p-bytes", &p2p_bytes_, "SIZE", "Bytes per copy of the bandwidth matrix (default 64M).");
  flags.Choice("--backend", &backend_, {"auto", "cuda", "hip"},
               "The GPU runtime (default: from the GPUs found).");
  flags.Choice("--launcher", &launcher_, {"auto", "local", "mpi"},
               "auto: MPI when started by mpirun/srun, else worker processes on this machine.");
  flags.String("--timeout", &timeout_, "S", "Time limit of each worker process in seconds (default 1200).");
  flags.Excludes("--no-p2p", "--p2p-only");
}

namespace {

// Every number of the flags into `request`, checked before any work; the first bad one is the error.
Status ReadCollectivesNumbers(const CollectivesFlagText& f, CollectivesRequest& request) {
  auto min_bytes = SizeFlag("--min-bytes", f.min_bytes);
  auto max_bytes = SizeFlag("--max-bytes", f.max_bytes);
  auto p2p_bytes = SizeFlag("--p2p-bytes", f.p2p_bytes);
  auto factor = WholeFlag("--factor", f.factor, 2, 1024);
  auto iters = WholeFlag("--iters", f.iters, 1, 100000);
  auto warmup = WholeFlag("--warmup", f.warmup, 0, 100000);
  auto gpus = WholeFlag("--gpus", f.gpus, 1, 4096);
  auto timeout = SecondsFlag("--timeout", f.timeout);
  if (!min_bytes) return min_bytes.error();
  if (!max_bytes) return max_bytes.error();
  if (!p2p_bytes) return p2p_bytes.error();
  if (!factor) return factor.error();
  if (!iters) return iters.error();
  if (!warmup) return warmup.error();
  if (!gpus) return gpus.error();
  if (!timeout) return timeout.error();
  CollectiveOptions& o = request.options;
  o.min_bytes = min_bytes->value_or(o.min_bytes);
  o.max_bytes = max_bytes->value_or(o.max_bytes);
  request.p2p_bytes = p2p_bytes->value_or(request.p2p_bytes);
  o.factor = factor->value_or(o.factor);
  o.iters = static_cast<int>(iters->value_or(static_cast<uint64_t>(o.iters)));
  o.warmup = static_cast<int>(warmup->value_or(static_cast<uint64_t>(o.warmup)));
  request.gpus = static_cast<int>(gpus->value_or(0));
  request.timeout = timeout->value_or(request.timeout);
  if (o.min_bytes > o.max_bytes)
    return UserError("--min-bytes " + std::to_string(o.min_bytes) + " is larger than --max-bytes " +
                     std::to_string(o.max_bytes));
  return Ok{};
}

}  // namespace

int CollectivesCommand::Run(const CliContext& ctx) {
  CollectivesRequest request;
  if (quick_) {
    request.options.factor = 4;
    request.options.iters = 5;
    request.options.warmup = 2;
  }
  auto ops = ParseCollectiveOps(ops_);
  if (!ops) return ReportError(ctx.err, ops.error().With("--ops " + ops_));
  request.options.ops = *ops;
  CollectivesFlagText text{min_bytes_, max_bytes_, p2p_bytes_, factor_, iters_, warmup_, gpus_, timeout_};
  if (auto s = ReadCollectivesNumbers(text, request); !s) return ReportError(ctx.err, s.error());
  request.p2p = !no_p2p_;
  request.collectives = !p2p_only_;
  if (backend_ != "auto") request.backend = BackendKindFromString(backend_);
  request.launcher = launcher_ == "local" ? LauncherChoice::kLocal
                     : launcher_ == "mpi" ? LauncherChoice::kMpi
                                          : LauncherChoice::kAuto;

  auto self = CurrentExecutablePath();
  if (!self)
    return ReportError(ctx.err, self.error().With("finding gpudoctor's own executable for the workers"));
  ProbeInputs inputs = MakeLiveInputs(ctx.env);
  Snapshot snapshot = ProbeMachine(inputs);
  bool json = json_;
  CollectivesReport report =
      RunCollectives(request, ctx.env, *self, snapshot, [&ctx, json](const CollectivesReport& r) {
        WriteAll(ctx.out, json ? CollectivesReportToJson(r) : RenderCollectivesText(r));
      });
  return report.exit_code;
}

}  // namespace gpudoctor
