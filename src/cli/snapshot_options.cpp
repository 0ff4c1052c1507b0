// Shared --sysroot / --from handling.
#include "cli/snapshot_options.h"

#include <filesystem>
#include <system_error>

#include "cli/output.h"
#include "probe/probe_inputs.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {

void SnapshotOptions::Define(FlagSet& flags) {
  flags.String("--sysroot", &sysroot, "DIR",
               "Read every file under DIR instead of / (a machine recorded with `gpudoctor gather`). "
               "The report is marked as not of this machine.");
  flags.String("--from", &from, "FILE", "Use a snapshot saved with `gpudoctor info --save FILE` instead of probing.");
  flags.Excludes("--sysroot", "--from");
}

Result<Snapshot> SnapshotOptions::Acquire(const CliContext& ctx, const KnowledgeDb* db) const {
  if (!from.empty()) {
    auto text = ReadUserFile(from);
    if (!text.ok()) return text.error();
    auto snap = SnapshotFromJson(*text, from);
    if (!snap.ok()) return snap.error();
    snap->live_machine = false;
    return snap;
  }
  if (!sysroot.empty() && sysroot != "/") {
    std::error_code ec;
    if (!std::filesystem::is_directory(sysroot, ec))
      return UserError("--sysroot " + sysroot + ": no such folder", "give the folder `gpudoctor gather DIR` wrote");
    return ProbeWithInputs(MakeRecordedInputs(sysroot, db));
  }
  return ProbeWithInputs(MakeLiveInputs(ctx.env, db));
}

}  // namespace gpudoctor
