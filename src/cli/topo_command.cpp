// `gpudoctor topo`: probes the machine (or a recorded sysroot), reads its topology and prints the matrix.
// No logic lives here (topo/).
#include "cli/topo_command.h"

#include <filesystem>
#include <system_error>

#include "cli/output.h"
#include "cli/snapshot_options.h"
#include "knowledge/knowledge_loader.h"
#include "probe/machine_probe.h"
#include "probe/probe_inputs.h"
#include "topo/topology_probe.h"
#include "topo/topology_report.h"

namespace gpudoctor {

std::string TopoCommand::Description() const {
  return "Show how the GPUs reach each other and the CPUs, as a matrix in the layout of `nvidia-smi topo "
         "-m`: "
         "NVLink (NV#, directly or through NVSwitches, from NVML), AMD XGMI (from the KFD io_links and "
         "p2p_links), or the PCIe path from the sysfs PCIe tree (PIX one switch, PXB several switches, PHB a "
         "host bridge, NODE between host bridges of a NUMA node, SYS across NUMA nodes), with each GPU's CPU "
         "and NUMA affinity. Works on recorded machines (--sysroot). JSON schema: docs/topo.md.\n\n"
         "Exit codes: 0 shown, 2 no GPU found, 3 gpudoctor itself failed.\n\n"
         "Examples:\n"
         "  gpudoctor topo                       this machine\n"
         "  gpudoctor topo --links               also each pair's KFD type, hops, weight and bandwidth\n"
         "  gpudoctor topo --json                the topology as JSON\n"
         "  gpudoctor topo --sysroot ./machine   a machine recorded with `gpudoctor gather`";
}

void TopoCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--json", &json_, "Print the topology as JSON (schema: docs/topo.md).");
  flags.Bool("--links", &links_,
             "Also list every GPU pair's link details (KFD type, hops, weight, bandwidth, P2P).");
  flags.String("--sysroot", &sysroot_, "DIR",
               "Read every file under DIR instead of / (a machine recorded with `gpudoctor gather`).");
}

int TopoCommand::Run(const CliContext& ctx) {
  // The built-in knowledge base names GPUs the machine's own name files do not know.
  auto db = LoadEmbeddedKnowledge();
  const KnowledgeDb* known = db.ok() ? &db.value() : nullptr;
  auto machine = MachineInputs(sysroot_, ctx.env, known);
  if (!machine.ok()) return ReportError(ctx.err, machine.error());
  ProbeInputs& inputs = *machine;
  Snapshot snap = ProbeWithInputs(inputs);
  Topology topo = ProbeTopology(inputs.Context(), snap);
  if (json_) {
    WriteAll(ctx.out, RenderTopologyJson(topo));
  } else {
    WriteAll(ctx.out, RenderTopologyText(topo, links_));
    std::string warnings;
    for (const auto& w : topo.warnings) warnings += "warning: " + w + "\n";
    WriteAll(ctx.err, warnings);
  }
  return topo.gpus.empty() ? kExitErrors : kExitOk;
}

}  // namespace gpudoctor
