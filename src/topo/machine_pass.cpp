// ProbeMachine (see machine_pass.h).
#include "topo/machine_pass.h"

#include "probe/machine_probe.h"
#include "topo/topology_probe.h"

namespace gpudoctor {

Snapshot ProbeMachine(const ProbeInputs& inputs) {
  const ProbeContext ctx = inputs.Context();
  Snapshot snap = RunProbes(ctx);
  snap.warnings.insert(snap.warnings.begin(), inputs.warnings.begin(), inputs.warnings.end());
  if (!snap.gpus.empty()) snap.topology = ProbeTopology(ctx, snap);
  return snap;
}

}  // namespace gpudoctor
