// `gpudoctor topo`: a view of the Snapshot's topology, from this machine, a recorded sysroot or a saved
// snapshot. No logic lives here (topo/).
#include "cli/topo_command.h"

#include "cli/output.h"
#include "knowledge/knowledge_loader.h"
#include "topo/topology_report.h"

namespace gpudoctor {

std::string TopoCommand::Description() const {
  return "Show how the GPUs reach each other and the CPUs, as a matrix in the layout of `nvidia-smi topo "
         "-m`: "
         "NVLink (NV#, directly or through NVSwitches, from NVML), AMD XGMI (from the KFD io_links and "
         "p2p_links), or the PCIe path from the sysfs PCIe tree (PIX one switch, PXB several switches, PHB a "
         "host bridge, NODE between host bridges of a NUMA node, SYS across NUMA nodes), with each GPU's CPU "
         "and NUMA affinity. Works on recorded machines (--sysroot) and on snapshots saved with `gpudoctor "
         "info "
         "--save` (--from), which carry the same topology. JSON schema: docs/topo.md.\n\n"
         "Exit codes: 0 shown, 2 no GPU found, 3 gpudoctor itself failed.\n\n"
         "Examples:\n"
         "  gpudoctor topo                       this machine\n"
         "  gpudoctor topo --links               also each pair's KFD type, hops, weight and bandwidth\n"
         "  gpudoctor topo --json                the topology as JSON\n"
         "  gpudoctor topo --sysroot ./machine   a machine recorded with `gpudoctor gather`\n"
         "  gpudoctor topo --from snap.json      a snapshot saved with `gpudoctor info --save`";
}

void TopoCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--json", &json_, "Print the topology as JSON (schema: docs/topo.md).");
  flags.Bool("--links", &links_,
             "Also list every GPU pair's link details (KFD type, hops, weight, bandwidth, P2P).");
  source_.Define(flags);
}

int TopoCommand::Run(const CliContext& ctx) {
  // The built-in knowledge base names GPUs the machine's own name files do not know.
  auto db = LoadEmbeddedKnowledge();
  auto snap = source_.Acquire(ctx, db.ok() ? &db.value() : nullptr);
  if (!snap.ok()) return ReportError(ctx.err, snap.error());
  if (!snap->gpus.empty() && !snap->topology)
    return ReportError(ctx.err,
                       UserError(source_.from + " holds no topology (saved by a gpudoctor before it did)",
                                 "save the snapshot again with `gpudoctor info --save FILE`, or run "
                                 "`gpudoctor topo` on that machine"));
  if (json_) {
    WriteAll(ctx.out, RenderTopologyJson(*snap));
  } else {
    WriteAll(ctx.out, RenderTopologyText(*snap, links_));
    std::string warnings;
    if (snap->topology)
      for (const auto& w : snap->topology->warnings) warnings += "warning: " + w + "\n";
    WriteAll(ctx.err, warnings);
  }
  return snap->topology ? kExitOk : kExitErrors;
}

}  // namespace gpudoctor
