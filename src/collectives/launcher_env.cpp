// Launcher detection from the environment (see launcher_env.h).
#include "collectives/launcher_env.h"

#include "core/enum_names.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

std::optional<int> Int(const Environment& env, const char* name) {
  auto v = env.Get(name);
  if (!v) return std::nullopt;
  auto n = ParseU64(*v);
  if (!n || *n > (1u << 24)) return std::nullopt;
  return static_cast<int>(*n);
}

}  // namespace

constexpr std::array kLauncherNames = {
    EnumName<Launcher>{Launcher::kNone, "none"},
    EnumName<Launcher>{Launcher::kMpirun, "mpirun"},
    EnumName<Launcher>{Launcher::kSrun, "srun"},
    EnumName<Launcher>{Launcher::kMpich, "mpich"},
};

const char* ToString(Launcher l) {
  return NameIn(kLauncherNames, l);
}

std::optional<Launcher> LauncherFromString(std::string_view s) {
  return ValueIn(kLauncherNames, s);
}

LaunchEnvironment DetectLauncher(const Environment& env) {
  LaunchEnvironment out;
  if (auto size = Int(env, "OMPI_COMM_WORLD_SIZE")) {
    out.launcher = Launcher::kMpirun;
    out.size = size;
    out.rank = Int(env, "OMPI_COMM_WORLD_RANK");
    out.local_rank = Int(env, "OMPI_COMM_WORLD_LOCAL_RANK");
    out.evidence = "OMPI_COMM_WORLD_SIZE=" + std::to_string(*size);
    return out;
  }
  if (auto size = Int(env, "SLURM_NTASKS");
      size && Int(env, "SLURM_PROCID") && (env.Has("SLURM_STEP_ID") || env.Has("SLURM_STEPID"))) {
    out.launcher = Launcher::kSrun;
    out.size = size;
    out.rank = Int(env, "SLURM_PROCID");
    out.local_rank = Int(env, "SLURM_LOCALID");
    out.evidence = "SLURM_NTASKS=" + std::to_string(*size) + " in a job step";
    return out;
  }
  if (auto size = Int(env, "PMI_SIZE"); size && Int(env, "PMI_RANK")) {
    out.launcher = Launcher::kMpich;
    out.size = size;
    out.rank = Int(env, "PMI_RANK");
    out.evidence = "PMI_SIZE=" + std::to_string(*size);
  }
  return out;
}

}  // namespace gpudoctor
