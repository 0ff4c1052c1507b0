// The one machine pass: what every command that looks at a machine (info, check, topo, setup, verify, bench,
// collectives, monitor, serve, fleet) and `gather` run, live or on a recorded sysroot. Gather records what
// this pass reads, so a replay of its recording runs the same pass on the same inputs.
#pragma once

#include "probe/probe_inputs.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Every probe (probe/machine_probe.h), the recorded inputs' own problems first among the warnings, then the
// topology when there is a GPU (none: it stays absent, and nothing more is read).
Snapshot ProbeMachine(const ProbeInputs& inputs);

}  // namespace gpudoctor
