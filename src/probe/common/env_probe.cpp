// STUB: to be replaced by the real probe.
#include "probe/common/env_probe.h"

namespace gpudoctor {

void ProbeEnvironmentVariables(const ProbeContext&, Snapshot&) {}

}  // namespace gpudoctor
