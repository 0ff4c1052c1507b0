// The whole probe pass: runs every probe in order and merges the GPU list.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

Snapshot ProbeMachine(const ProbeContext& ctx);

}  // namespace gpudoctor
