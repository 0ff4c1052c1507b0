// `gpudoctor gather DIR`: copies the files the probes read into DIR, so the
// machine can be replayed anywhere with `--sysroot DIR`.
#include "cli/gather_command.h"

#include "cli/output.h"
#include "cli/snapshot_options.h"
#include "gather/gather.h"
#include "gather/gather_windows.h"
#include "knowledge/knowledge_loader.h"
#include "probe/linux/nvidia_probe.h"
#include "probe/linux/nvidia_record.h"
#include "probe/probe_inputs.h"
#include "telemetry/nvml_telemetry.h"
#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_libraries.h"
#include "telemetry/telemetry_reader.h"
#include "topo/machine_pass.h"
#include "topo/nvml_topology.h"

namespace gpudoctor {

std::string GatherCommand::Description() const {
  return "Record exactly what gpudoctor reads on this machine into a new folder DIR: its probes run once "
         "and every file, folder listing and link they look at is copied (sysfs, /proc, os-release, driver "
         "and runtime version files, the Python environments with their package metadata and the parts of "
         "their GPU libraries that were read), with the GPU-related environment variables and PATH, your "
         "user name and groups, and NVML's answers; on Windows the registry values, DXGI adapters, DLL "
         "versions and Python folders it reads. Attach DIR (zipped) to a bug report; anyone can then run "
         "`gpudoctor info --sysroot DIR` or `gpudoctor check --sysroot DIR` on it.\n\n"
         "Example:\n"
         "  gpudoctor gather my-machine && tar czSf my-machine.tgz my-machine   (S: large libraries are "
         "recorded as sparse files)";
}

void GatherCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("DIR", &dest_, "New folder to write (must not exist, or be empty)", true);
  flags.String("--sysroot", &sysroot_, "ROOT",
               "Record a machine recorded before (a folder `gpudoctor gather` wrote) instead of this one: "
               "what its probes read there, with its recorded NVML answers; nothing live is asked.");
}

namespace {

std::vector<TelemetrySample> SampleNvmlOnce(std::vector<std::string>& notes) {
  auto session = NvmlTelemetrySession::Open();
  if (!session.ok()) {
    notes.push_back("NVML telemetry not recorded: " + session.error().message);
    return {};
  }
  std::vector<TelemetrySample> samples;
  for (const auto& d : (*session)->Devices(notes)) samples.push_back((*session)->Read(d, notes));
  return samples;
}

// One ADL sample of each AMD GPU of a Windows machine, for `monitor --sysroot` and `serve --sysroot`; empty
// when ADL answers for none.
std::string SampleAdlOnce(const ProbeInputs& in, std::vector<std::string>& notes) {
  TelemetryLibraries libraries = FindTelemetryLibraries(*in.fs, in.env, in.live, in.windows != nullptr);
  libraries.nvml = false;
  if (libraries.adl.empty()) return {};
  TelemetryReader reader(*in.fs, in.live, ProbeMachine(in), libraries);
  for (const auto& w : reader.setup_warnings()) notes.push_back("ADL telemetry: " + w);
  if (reader.devices().empty()) return {};
  return RecordedTelemetryToJson(reader.Read(notes));
}

// The notes, then where the recording went; or the error that stopped it.
int Finish(const CliContext& ctx, const Status& st, const std::vector<std::string>& notes,
           const std::string& what, const std::string& dest) {
  if (!st.ok()) return ReportError(ctx.err, st.error());
  std::string text;
  for (const auto& n : notes) text += "note: " + n + "\n";
  WriteAll(ctx.err, text + "recorded " + what + " into " + dest + "\n");
  return kExitOk;
}

}  // namespace

int GatherCommand::Run(const CliContext& ctx) {
  // With the built-in knowledge base, as `info` and `check` run: the recording holds what they read.
  auto db = LoadEmbeddedKnowledge();
  auto machine = MachineInputs(sysroot_, ctx.env, db.ok() ? &db.value() : nullptr);
  if (!machine.ok()) return ReportError(ctx.err, machine.error());
  ProbeInputs& in = *machine;
  std::vector<std::string> notes;
  const std::string what = in.live ? "this machine" : "the machine recorded in " + sysroot_;
  if (in.windows) {
    std::string adl_json = in.live ? SampleAdlOnce(in, notes) : "";
    return Finish(ctx, GatherWindowsMachine(in, adl_json, dest_, notes), notes, what, dest_);
  }
  // A recorded machine's NVML answers are its recorded nvml.json, which GatherMachine copies.
  if (!in.live) return Finish(ctx, GatherMachine(in, "", dest_, notes), notes, what, dest_);
  Snapshot nv;
  ProbeNvidia(in.Context(), nv);
  std::string nvml_json = NvidiaAnswersToJson(nv.nvidia);
  // How the NVIDIA GPUs are wired (NVLink, PCIe common ancestors, P2P status), for `topo --sysroot`.
  if (!nv.nvidia.devices.empty()) nvml_json = AddNvmlTopologyToJson(nvml_json, QueryNvmlTopologyLive(notes));
  // One telemetry sample of each NVIDIA GPU, for `monitor --sysroot` and `serve --sysroot`.
  if (!nv.nvidia.devices.empty()) nvml_json = AddTelemetryToNvmlJson(nvml_json, SampleNvmlOnce(notes));
  return Finish(ctx, GatherMachine(in, nvml_json, dest_, notes), notes, what, dest_);
}

}  // namespace gpudoctor
