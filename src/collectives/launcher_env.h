// Whether this process is one rank of a job started by an existing launcher, from the variables the launcher
// sets: Open MPI's mpirun (OMPI_COMM_WORLD_RANK / _SIZE / _LOCAL_RANK) or Slurm's srun (SLURM_PROCID /
// SLURM_NTASKS / SLURM_LOCALID, inside a job step: SLURM_STEP_ID). MPICH's hydra (PMI_RANK / PMI_SIZE) is
// recognized only to say it is not supported yet. Pure: the environment is an input.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "platform/environment.h"

namespace gpudoctor {

enum class Launcher { kNone, kMpirun, kSrun, kMpich };
const char* ToString(Launcher l);                                // "none", "mpirun", "srun", "mpich"
std::optional<Launcher> LauncherFromString(std::string_view s);  // nullopt for any other word

struct LaunchEnvironment {
  Launcher launcher = Launcher::kNone;
  std::optional<int> rank;
  std::optional<int> size;
  std::optional<int> local_rank;
  std::string evidence;  // "OMPI_COMM_WORLD_SIZE=4"
};

LaunchEnvironment DetectLauncher(const Environment& env);

}  // namespace gpudoctor
