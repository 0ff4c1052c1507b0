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
#include "collectives/collectives_result.h"
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

// Prints the report: called once, by rank 0 alone under MPI, before any rank leaves MPI (mpirun ends the job
// as soon as one rank exits with a non-zero code, which would cut rank 0's output short).
using EmitReport = std::function<void(const CollectivesReport&)>;

// `self` is this executable (re-run as the workers); `snapshot` the live machine's probe (host name, GPUs).
CollectivesReport RunCollectives(const CollectivesRequest& request, const Environment& env,
                                 const std::string& self, const Snapshot& snapshot, const EmitReport& emit);

// The exit code and statuses from the parts' outcomes (pure; used by both modes).
void FinishReport(CollectivesReport& report);

}  // namespace gpudoctor
