// The parent side of `gpudoctor collectives`. On one machine (no launcher): one worker process per GPU, each
// a rank, the NCCL unique id made here and passed to every worker, plus one worker for the P2P matrix. Under
// Open MPI's mpirun or Slurm's srun: this process is one rank; MPI (loaded at run time) tells rank and size,
// every rank says whether it can run, rank 0 makes the unique id and broadcasts it, each rank runs its one
// worker on the GPU of its local rank, and rank 0 gathers every rank's facts and figures into one report.
// A machine without a GPU still gives a report: the GPU parts are skipped with their reason.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collectives/collective_types.h"
#include "collectives/launcher_env.h"
#include "collectives/p2p_matrix.h"
#include "gpu/backend.h"
#include "platform/environment.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

enum class LauncherChoice { kAuto, kLocal, kMpi };

struct CollectivesRequest {
  std::optional<BackendKind> backend;  // default: from the GPUs on the PCI bus
  CollectiveOptions options;
  int gpus = 0;  // 0: every GPU the runtime sees (local mode)
  bool collectives = true;
  bool p2p = true;
  uint64_t p2p_bytes = 64ull << 20;
  std::chrono::seconds timeout{1200};  // per worker
  LauncherChoice launcher = LauncherChoice::kAuto;
};

// One rank's host facts and outcome.
struct RankHost {
  int rank = 0;
  std::string host;
  int local_rank = 0;
  int gpus_visible = 0;
  int device = -1;
  std::string device_name;
  std::string pci_address;
  std::string status = "skipped";  // "ran", "failed", "skipped"
  std::string reason;
};

struct CollectivesReport {
  std::string mode = "local";  // "local" (worker processes on this machine) or "mpi"
  Launcher launcher = Launcher::kNone;
  std::string mpi_library;
  int world_size = 0;
  std::string backend;  // "cuda", "hip", "" when none loaded
  std::string library;  // "NCCL 2.27.3 (...)"
  CollectiveOptions options;
  std::vector<RankHost> ranks;
  std::string collectives_status = "skipped";  // "ran", "failed", "skipped"
  std::string collectives_reason;
  std::vector<CollectiveRow> rows;
  std::string p2p_status = "skipped";
  std::string p2p_reason;
  std::optional<P2pMatrix> p2p;
  std::vector<std::string> warnings;
  int exit_code = 0;  // 0 all ran and every check passed, 1 a run failed or wrong data, 2 no usable GPU
};

// Prints the report: called once, by rank 0 alone under MPI, before any rank leaves MPI (mpirun ends the job
// as soon as one rank exits with a non-zero code, which would cut rank 0's output short).
using EmitReport = std::function<void(const CollectivesReport&)>;

// `self` is this executable (re-run as the workers); `snapshot` the live machine's probe (host name, GPUs).
CollectivesReport RunCollectives(const CollectivesRequest& request, const Environment& env,
                                 const std::string& self, const Snapshot& snapshot, const EmitReport& emit);

// The exit code and statuses from the parts' outcomes (pure; used by both modes).
void FinishReport(CollectivesReport& report);

}  // namespace gpudoctor
