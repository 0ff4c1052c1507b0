// Every probe of the machine in order, then the merged GPU list and the knowledge stage. Commands do not
// call it: they take the one machine pass, ProbeMachine (topo/machine_pass.h), which adds the recorded
// inputs' warnings and the topology.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

Snapshot RunProbes(const ProbeContext& ctx);

}  // namespace gpudoctor
