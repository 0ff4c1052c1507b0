// `gpudoctor gather DIR`: copies the files the probes read into DIR, so the
// machine can be replayed anywhere with `--sysroot DIR`.
#include "cli/gather_command.h"

#include "cli/output.h"
#include "gather/gather.h"
#include "probe/linux/nvidia_probe.h"
#include "probe/linux/nvidia_record.h"
#include "probe/probe_inputs.h"

namespace gpudoctor {

std::string GatherCommand::Description() const {
  return "Record the files gpudoctor reads on this machine (sysfs, /proc, os-release, driver and runtime "
         "version files, the GPU-related environment variables, your user name and groups, and NVML's "
         "answers) into a new folder DIR. Attach DIR (zipped) to a bug report; anyone can then run "
         "`gpudoctor info --sysroot DIR` or `gpudoctor check --sysroot DIR` on it.\n\n"
         "Example:\n"
         "  gpudoctor gather my-machine && tar czf my-machine.tgz my-machine";
}

void GatherCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("DIR", &dest_, "New folder to write (must not exist, or be empty)", true);
}

int GatherCommand::Run(const CliContext& ctx) {
  ProbeInputs in = MakeLiveInputs(ctx.env);
  Snapshot nv;
  ProbeNvidia(in.Context(), nv);
  std::vector<std::string> notes;
  auto st = GatherMachine(*in.fs, in.env, in.identity, NvidiaAnswersToJson(nv.nvidia), dest_, notes);
  if (!st.ok()) return ReportError(ctx.err, st.error());
  std::string text;
  for (const auto& n : notes) text += "note: " + n + "\n";
  text += "recorded this machine into " + dest_ + "\n";
  WriteAll(ctx.err, text);
  return kExitOk;
}

}  // namespace gpudoctor
