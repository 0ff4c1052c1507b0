// The options every machine-reading command shares: read this machine, a
// recorded sysroot (--sysroot DIR), or a saved snapshot (--from FILE).
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flags.h"
#include "core/result.h"
#include "platform/environment.h"
#include "probe/probe_inputs.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct KnowledgeDb;

struct SnapshotOptions {
  std::string sysroot;
  std::string from;
  std::vector<std::string> python_envs;  // --python-env (info and check)

  void Define(FlagSet& flags);
  // --python-env DIR (repeatable): commands that list Python environments declare it too.
  void DefinePythonEnvs(FlagSet& flags);
  // Probes the machine (or sysroot), its topology included, or loads the saved snapshot. `db` (may be
  // null) adds what only the knowledge base knows (names, families).
  Result<Snapshot> Acquire(const CliContext& ctx, const KnowledgeDb* db = nullptr) const;
};

// The probe inputs of this machine, or of the machine recorded under `sysroot` ("" or "/" is this machine);
// a sysroot that is not a folder is the user's error. `db` (may be null) must outlive the inputs.
Result<ProbeInputs> MachineInputs(const std::string& sysroot, const Environment& env, const KnowledgeDb* db);

}  // namespace gpudoctor
