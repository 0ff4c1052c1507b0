// What `gpudoctor collectives` found: each rank's host and outcome, the collectives' rows and the P2P matrix.
// Its own header so that the readers (text, JSON, HTML) compile without the runner and its launchers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collectives/collective_types.h"
#include "collectives/launcher_env.h"
#include "collectives/p2p_matrix.h"

namespace gpudoctor {

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

}  // namespace gpudoctor
