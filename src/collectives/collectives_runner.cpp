// RunCollectives: the local and the MPI mode (see collectives_runner.h).
#include "collectives/collectives_runner.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "collectives/collective_libraries.h"
#include "collectives/collective_request.h"
#include "collectives/collectives_report.h"
#include "collectives/mpi_session.h"
#include "core/strings.h"
#include "platform/process.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {
namespace {

// What this process found of the GPUs: the backend to use and the devices its runtime sees.
struct GpuSide {
  std::optional<BackendKind> kind;
  std::unique_ptr<FileSystem> fs;
  BackendInputs inputs;
  std::vector<DeviceInfo> devices;
  std::string reason;  // why there is no usable GPU
};

GpuSide FindGpus(const CollectivesRequest& request, const Environment& env, const Snapshot& snapshot) {
  GpuSide side;
  side.fs = MakeRootedFileSystem("/");
  side.inputs = LiveBackendInputs(*side.fs, env);
  side.kind = request.backend;
  if (!side.kind) {
    bool nvidia = false, amd = false;
    for (const auto& g : snapshot.gpus) {
      nvidia = nvidia || g.vendor == GpuVendor::kNvidia;
      amd = amd || g.vendor == GpuVendor::kAmd;
    }
    if (nvidia)
      side.kind = BackendKind::kCuda;
    else if (amd)
      side.kind = BackendKind::kHip;
  }
  if (!side.kind) {
    side.reason = "no AMD or NVIDIA GPU on the PCI bus";
    return side;
  }
  auto backend = MakeBackend(*side.kind, side.inputs);
  if (!backend) {
    side.reason = backend.error().message;
    return side;
  }
  if (auto s = (*backend)->LoadRuntime(); !s) {
    side.reason = s.error().message;
    return side;
  }
  auto devices = (*backend)->Devices();
  if (!devices) {
    side.reason = devices.error().message;
    return side;
  }
  side.devices = *devices;
  if (side.devices.empty())
    side.reason = std::string("the ") + (*backend)->DisplayName() + " runtime sees no GPU";
  return side;
}

// The largest sweep that fits every device: four buffers of the largest size stay under its memory.
uint64_t CapToMemory(uint64_t max_bytes, const std::vector<DeviceInfo>& devices) {
  for (const auto& d : devices)
    if (d.memory_total_bytes > 0) max_bytes = std::min(max_bytes, d.memory_total_bytes / 4);
  return max_bytes;
}

std::string Tail(const std::string& text, size_t n) {
  std::string t(Trim(text));
  return t.size() <= n ? t : "..." + t.substr(t.size() - n);
}

// The last line of a worker's stdout, or why there is none.
Result<std::string> WorkerAnswer(const Result<ProcessResult>& run, long timeout_s) {
  if (!run) return run.error();
  const ProcessResult& p = *run;
  std::string last;
  for (auto line : SplitLines(p.stdout_text))
    if (!Trim(line).empty()) last = std::string(Trim(line));
  if (!last.empty()) return last;
  ChildEnd end = ReadChildEnd(p, std::chrono::seconds(timeout_s));
  if (end.kind == ChildEndKind::kExited) end.how = "exited with code 0";
  return EnvError("the worker " + end.how + " without an answer" +
                  (p.stderr_text.empty() ? "" : " (" + Tail(p.stderr_text, 300) + ")"));
}

Result<ProcessResult> RunCollectivesWorker(const std::string& self, const CollectiveWorkerRequest& r,
                                           std::chrono::seconds timeout) {
  return RunWorkerProcess(self, ToWorkerRequest(r), timeout);
}

RankReport RankFromWorker(const Result<ProcessResult>& run, long timeout_s, int rank) {
  RankReport failed;
  failed.rank = rank;
  auto answer = WorkerAnswer(run, timeout_s);
  if (!answer) {
    failed.error = answer.error().message;
    return failed;
  }
  auto report = RankReportFromJson(*answer);
  if (!report) {
    failed.error = report.error().message;
    return failed;
  }
  return *report;
}

CollectiveWorkerRequest RankRequest(const CollectivesRequest& request, BackendKind kind,
                                    const std::string& id_hex, int rank, int ranks, int device) {
  CollectiveWorkerRequest r;
  r.kind = kWorkerCollectiveRank;
  r.backend = kind;
  r.rank = rank;
  r.ranks = ranks;
  r.device = device;
  r.unique_id_hex = id_hex;
  r.options = request.options;
  return r;
}

// The unique id from NCCL's ncclGetUniqueId; `library` keeps NCCL loaded while the ranks bootstrap from it
// (the id names a listening socket of this process).
Result<std::string> MakeUniqueId(const BackendInputs& inputs, BackendKind kind, LoadedTable<NcclApi>& library,
                                 BackendLibrary& record) {
  library = LoadCollectiveLibrary(inputs, kind, record);
  if (library.status != LoadStatus::kLoaded)
    return EnvError(DescribeCollectiveLibrary(record) + " is " + std::string(LoadStatusName(record.status)) +
                        ": " + record.detail,
                    kind == BackendKind::kHip
                        ? "install RCCL (it comes with ROCm and with ROCm builds of PyTorch)"
                        : "install NCCL (pip install nvidia-nccl-cu12, or the libnccl2 package)");
  ncclUniqueId id{};
  if (ncclResult_t rc = library.api.GetUniqueId(&id); rc != kNcclSuccess)
    return EnvError("ncclGetUniqueId failed: " + NcclErrorText(library.api, rc));
  return HexEncode(id.internal, sizeof id.internal);
}

void ApplyRankReport(RankHost& host, const RankReport& r) {
  host.device = r.device;
  if (!r.device_name.empty()) host.device_name = r.device_name;
  if (!r.pci_address.empty()) host.pci_address = r.pci_address;
  host.status = r.error.empty() ? "ran" : "failed";
  host.reason = r.error;
}

// No GPU to run on: one rank line that says why, and both parts skipped with that reason.
void ReportNoGpu(const std::string& reason, const Snapshot& snapshot, CollectivesReport& report) {
  report.collectives_reason = report.p2p_reason = "no usable GPU: " + reason;
  RankHost h;
  h.host = snapshot.host_name;
  h.reason = reason;
  report.ranks.push_back(h);
}

// One rank per device, the first `n` devices of this machine.
void AddLocalRanks(const std::vector<DeviceInfo>& devices, int n, const Snapshot& snapshot,
                   CollectivesReport& report) {
  for (int i = 0; i < n; ++i) {
    RankHost h;
    h.rank = i;
    h.host = snapshot.host_name;
    h.local_rank = i;
    h.gpus_visible = static_cast<int>(devices.size());
    h.device = i;
    h.device_name = devices[static_cast<size_t>(i)].name;
    h.pci_address = devices[static_cast<size_t>(i)].pci_address;
    report.ranks.push_back(h);
  }
}

// The P2P matrix, measured by one worker.
void RunP2pMatrix(const CollectivesRequest& request, BackendKind kind, const std::string& self,
                  CollectivesReport& report) {
  CollectiveWorkerRequest r;
  r.kind = kWorkerP2pMatrix;
  r.backend = kind;
  r.p2p_bytes = request.p2p_bytes;
  auto answer = WorkerAnswer(RunCollectivesWorker(self, r, request.timeout),
                             static_cast<long>(request.timeout.count()));
  auto matrix = answer ? P2pMatrixFromJson(*answer) : Result<P2pMatrix>(answer.error());
  if (!matrix) {
    report.p2p_status = "failed";
    report.p2p_reason = matrix.error().message;
  } else {
    report.p2p = *matrix;
    report.p2p_status = "ran";
  }
}

// The `n` rank workers, all at once (they meet in NCCL's bootstrap), each with the sweep capped to the
// devices' memory.
std::vector<Result<ProcessResult>> RunRankWorkers(const CollectivesRequest& request,
                                                  const CollectivesReport& report, BackendKind kind,
                                                  const std::string& id_hex, int n, const std::string& self) {
  CollectivesRequest capped = request;
  capped.options.max_bytes = report.options.max_bytes;
  std::vector<Result<ProcessResult>> runs(static_cast<size_t>(n),
                                          Result<ProcessResult>(InternalError("not run")));
  std::vector<std::thread> threads;
  for (int rank = 0; rank < n; ++rank) {
    threads.emplace_back([&, rank] {
      runs[static_cast<size_t>(rank)] =
          RunCollectivesWorker(self, RankRequest(capped, kind, id_hex, rank, n, rank), request.timeout);
    });
  }
  for (auto& t : threads) t.join();
  return runs;
}

// The collectives on this machine's `n` GPUs: NCCL's unique id made here, one worker per rank, their
// records merged into the report.
void RunLocalCollectives(const CollectivesRequest& request, const GpuSide& side, int n,
                         const std::string& self, const Snapshot& snapshot, CollectivesReport& report) {
  LoadedTable<NcclApi> library;
  BackendLibrary record;
  auto id = MakeUniqueId(side.inputs, *side.kind, library, record);
  report.library = DescribeCollectiveLibrary(record);
  if (!id) {
    report.collectives_reason = id.error().message + (id.error().hint.empty() ? "" : "; " + id.error().hint);
    return;
  }
  auto runs = RunRankWorkers(request, report, *side.kind, *id, n, self);
  std::vector<RankReport> ranks;
  for (int rank = 0; rank < n; ++rank) {
    RankReport r =
        RankFromWorker(runs[static_cast<size_t>(rank)], static_cast<long>(request.timeout.count()), rank);
    r.rank = rank;
    r.host = snapshot.host_name;
    ApplyRankReport(report.ranks[static_cast<size_t>(rank)], r);
    if (!r.library.empty()) report.library = r.library;
    ranks.push_back(std::move(r));
  }
  report.rows = AggregateRanks(ranks, n);
  report.collectives_status = "ran";
}

void RunLocal(const CollectivesRequest& request, const Environment& env, const std::string& self,
              const Snapshot& snapshot, CollectivesReport& report) {
  GpuSide side = FindGpus(request, env, snapshot);
  report.world_size = 0;
  if (side.kind) report.backend = ToString(*side.kind);
  if (!side.reason.empty()) return ReportNoGpu(side.reason, snapshot, report);
  int n = static_cast<int>(side.devices.size());
  if (request.gpus > 0) n = std::min(n, request.gpus);
  report.world_size = n;
  report.options.max_bytes = CapToMemory(report.options.max_bytes, side.devices);
  AddLocalRanks(side.devices, n, snapshot, report);
  if (request.p2p)
    RunP2pMatrix(request, *side.kind, self, report);
  else
    report.p2p_reason = "not asked for (--no-p2p)";
  if (!request.collectives) {
    report.collectives_reason = "not asked for (--p2p-only)";
    return;
  }
  RunLocalCollectives(request, side, n, self, snapshot, report);
}

// ---- MPI mode.

// At rank 0: every rank's record into the report.
void MergeAtRoot(const std::vector<std::string>& gathered, bool all_ready, const CollectivesRequest& request,
                 CollectivesReport& report) {
  std::vector<RankReport> ranks;
  for (const auto& text : gathered) {
    auto parsed = RankHostFromJson(text);
    if (!parsed) {
      report.warnings.push_back("a rank's report could not be read: " + parsed.error().message);
      continue;
    }
    report.ranks.push_back(parsed->first);
    if (parsed->second) {
      if (!parsed->second->library.empty()) report.library = parsed->second->library;
      ranks.push_back(*parsed->second);
    }
  }
  if (!all_ready || ranks.empty()) {
    std::string why;
    for (const auto& h : report.ranks) {
      if (h.reason.empty()) continue;
      why = "rank " + std::to_string(h.rank) + " on " + h.host + ": " + h.reason;
      break;
    }
    report.collectives_reason = !request.collectives ? "not asked for (--p2p-only)"
                                : why.empty()        ? "not every rank could run"
                                                     : "not every rank has a usable GPU (" + why + ")";
    return;
  }
  report.rows = AggregateRanks(ranks, report.world_size);
  report.collectives_status = "ran";
}

// MPI did not start: every process reports on its own (there is no root to gather to).
void ReportWithoutMpi(const Error& error, const Snapshot& snapshot, const EmitReport& emit,
                      CollectivesReport& report) {
  report.collectives_reason = "MPI could not start: " + error.message;
  report.warnings.push_back(error.hint);
  RankHost h;
  h.host = snapshot.host_name;
  h.reason = report.collectives_reason;
  report.ranks.push_back(h);
  FinishReport(report);
  emit(report);
}

// This rank's line: its host, local rank and the GPU that local rank names; `side.reason` says why it has
// none (also when the node has fewer GPUs than local ranks).
RankHost ThisRank(const MpiSession& mpi, const LaunchEnvironment& launch, const Snapshot& snapshot,
                  GpuSide& side) {
  RankHost me;
  me.rank = mpi.rank();
  me.host = snapshot.host_name;
  me.local_rank = launch.local_rank.value_or(0);
  me.gpus_visible = static_cast<int>(side.devices.size());
  if (side.reason.empty() && me.local_rank >= me.gpus_visible)
    side.reason = "local rank " + std::to_string(me.local_rank) + " has no GPU (this node's runtime sees " +
                  std::to_string(me.gpus_visible) + ")";
  if (side.reason.empty()) {
    me.device = me.local_rank;
    me.device_name = side.devices[static_cast<size_t>(me.local_rank)].name;
    me.pci_address = side.devices[static_cast<size_t>(me.local_rank)].pci_address;
  }
  me.reason = side.reason;
  return me;
}

// With every rank ready: rank 0 makes NCCL's unique id (`library` keeps NCCL loaded there while the ranks
// bootstrap from it) and broadcasts it, then this rank runs its worker. Nothing when the id could not be
// shared; `me.reason` then says why.
std::optional<RankReport> RunMpiRank(MpiSession& mpi, const CollectivesRequest& request, const GpuSide& side,
                                     const std::string& self, LoadedTable<NcclApi>& library, RankHost& me) {
  ncclUniqueId id{};
  std::string id_error;
  if (mpi.rank() == 0) {
    BackendLibrary record;
    auto hex = MakeUniqueId(side.inputs, *side.kind, library, record);
    if (hex)
      HexDecode(*hex, id.internal, sizeof id.internal);
    else
      id_error = hex.error().message;
  }
  // Rank 0 sends a zero id when it failed; every rank then skips with the reason rank 0 reports.
  auto ok = mpi.AllgatherInt(id_error.empty() ? 1 : 0);
  if (auto s = mpi.Broadcast(id.internal, static_cast<int>(sizeof id.internal), 0); !s)
    me.reason = s.error().message;
  if (ok && (*ok)[0] == 1 && me.reason.empty()) {
    CollectivesRequest capped = request;
    capped.options.max_bytes = CapToMemory(request.options.max_bytes, side.devices);
    auto run =
        RunCollectivesWorker(self,
                             RankRequest(capped, *side.kind, HexEncode(id.internal, sizeof id.internal),
                                         mpi.rank(), mpi.size(), me.local_rank),
                             request.timeout);
    RankReport mine = RankFromWorker(run, static_cast<long>(request.timeout.count()), mpi.rank());
    ApplyRankReport(me, mine);
    return mine;
  }
  if (!id_error.empty()) me.reason = id_error;
  return std::nullopt;
}

// Every rank's line to rank 0, which merges them; every rank exits with rank 0's verdict, so mpirun and
// srun report the job's outcome; rank 0 emits the report.
void GatherAndEmit(MpiSession& mpi, const RankHost& me, const std::optional<RankReport>& mine, bool all_ready,
                   const CollectivesRequest& request, const EmitReport& emit, CollectivesReport& report) {
  auto gathered = mpi.GatherStrings(RankHostToJson(me, mine ? &*mine : nullptr), 0);
  if (!gathered) {
    report.collectives_reason = gathered.error().message;
  } else if (mpi.rank() == 0) {
    MergeAtRoot(*gathered, all_ready, request, report);
  }
  FinishReport(report);
  int code = report.exit_code;
  if (mpi.Broadcast(&code, static_cast<int>(sizeof code), 0)) report.exit_code = code;
  if (mpi.rank() == 0) emit(report);
  (void)mpi.Barrier();
}

void RunMpi(const CollectivesRequest& request, const Environment& env, const std::string& self,
            const Snapshot& snapshot, const LaunchEnvironment& launch, const EmitReport& emit,
            CollectivesReport& report) {
  report.mode = "mpi";
  report.launcher = launch.launcher;
  report.p2p_reason =
      "the P2P matrix runs on one machine without mpirun/srun (run `gpudoctor collectives --p2p-only` on a "
      "node)";
  auto session = MpiSession::Start();
  if (!session) return ReportWithoutMpi(session.error(), snapshot, emit, report);
  MpiSession& mpi = **session;
  report.mpi_library = mpi.library_path();
  report.world_size = mpi.size();

  GpuSide side = FindGpus(request, env, snapshot);
  if (side.kind) report.backend = ToString(*side.kind);
  RankHost me = ThisRank(mpi, launch, snapshot, side);

  LoadedTable<NcclApi> library;
  std::optional<RankReport> mine;
  auto ready = mpi.AllgatherInt(side.reason.empty() && request.collectives ? 1 : 0);
  bool all_ready = ready && std::all_of(ready->begin(), ready->end(), [](int v) { return v == 1; });
  if (!ready)
    me.reason = ready.error().message;
  else if (all_ready)
    mine = RunMpiRank(mpi, request, side, self, library, me);
  GatherAndEmit(mpi, me, mine, all_ready, request, emit, report);
}

}  // namespace

void FinishReport(CollectivesReport& report) {
  if (report.collectives_status == "ran") {
    for (const auto& row : report.rows)
      if (!row.error.empty() || row.wrong > 0) report.collectives_status = "failed";
    for (const auto& r : report.ranks)
      if (r.status == "failed") report.collectives_status = "failed";
  }
  if (report.p2p_status == "ran" && report.p2p) {
    if (!report.p2p->error.empty()) {
      report.p2p_status = "failed";
      report.p2p_reason = report.p2p->error;
    }
    for (const auto& row : report.p2p->correct)
      for (bool ok : row)
        if (!ok) report.p2p_status = "failed";
  }
  bool failed = report.collectives_status == "failed" || report.p2p_status == "failed";
  bool ran = report.collectives_status == "ran" || report.p2p_status == "ran";
  report.exit_code = failed ? 1 : ran ? 0 : 2;
}

CollectivesReport RunCollectives(const CollectivesRequest& request, const Environment& env,
                                 const std::string& self, const Snapshot& snapshot, const EmitReport& emit) {
  CollectivesReport report;
  report.options = request.options;
  LaunchEnvironment launch = DetectLauncher(env);
  bool mpi = request.launcher == LauncherChoice::kMpi ||
             (request.launcher == LauncherChoice::kAuto &&
              (launch.launcher == Launcher::kMpirun || launch.launcher == Launcher::kSrun));
  if (request.launcher == LauncherChoice::kAuto && launch.launcher == Launcher::kMpich)
    report.warnings.push_back(
        "started by an MPICH launcher (" + launch.evidence +
        "): MPICH is not supported yet, so this process runs alone as if started by hand");
  if (mpi) {
    RunMpi(request, env, self, snapshot, launch, emit, report);  // finishes and emits itself: rank 0 decides
  } else {
    RunLocal(request, env, self, snapshot, report);
    FinishReport(report);
    emit(report);
  }
  return report;
}

}  // namespace gpudoctor
