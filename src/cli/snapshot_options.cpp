// Shared --sysroot / --from handling.
#include "cli/snapshot_options.h"

#include <filesystem>
#include <system_error>

#include "platform/user_file.h"
#include "probe/probe_inputs.h"
#include "snapshot/snapshot_json.h"
#include "topo/machine_pass.h"

namespace gpudoctor {

void SnapshotOptions::Define(FlagSet& flags) {
  flags.String("--sysroot", &sysroot, "DIR",
               "Read every file under DIR instead of / (a machine recorded with `gpudoctor gather`). "
               "The report is marked as not of this machine.");
  flags.String("--from", &from, "FILE",
               "Use a snapshot saved with `gpudoctor info --save FILE` instead of probing.");
  flags.Excludes("--sysroot", "--from");
}

void SnapshotOptions::DefinePythonEnvs(FlagSet& flags) {
  flags.StringList(
      "--python-env", &python_envs, "DIR",
      "Also examine the Python environment at DIR (a venv or conda prefix, or a site-packages "
      "folder); repeatable. Under --sysroot DIR is a path inside the recorded machine (C:\\... on a "
      "recorded Windows machine).");
  flags.Excludes("--python-env", "--from");
}

Result<Snapshot> SnapshotOptions::Acquire(const CliContext& ctx, const KnowledgeDb* db) const {
  if (!from.empty()) {
    auto text = ReadUserFile(from, kMaxSnapshotBytes);
    if (!text.ok()) return text.error();
    auto snap = SnapshotFromJson(*text, from);
    if (!snap.ok()) return snap.error();
    snap->live_machine = false;
    return snap;
  }
  auto machine = MachineInputs(sysroot, ctx.env, db);
  if (!machine.ok()) return machine.error();
  ProbeInputs& inputs = *machine;
  if (!inputs.live) {
    inputs.python_env_dirs = python_envs;
    return ProbeMachine(inputs);
  }
  for (const auto& dir : python_envs) {
    std::error_code ec;
    auto absolute = std::filesystem::absolute(std::filesystem::path(dir), ec);
    inputs.python_env_dirs.push_back(ec ? dir : absolute.lexically_normal().generic_string());
  }
  return ProbeMachine(inputs);
}

Result<ProbeInputs> MachineInputs(const std::string& sysroot, const Environment& env, const KnowledgeDb* db) {
  if (sysroot.empty() || sysroot == "/") return MakeLiveInputs(env, db);
  std::error_code ec;
  if (!std::filesystem::is_directory(sysroot, ec))
    return UserError("--sysroot " + sysroot + ": no such folder",
                     "give the folder `gpudoctor gather DIR` wrote");
  return MakeRecordedInputs(sysroot, db);
}

}  // namespace gpudoctor
