// STUB: to be replaced by the real probe.
#include "probe/common/runtime_probe.h"

namespace gpudoctor {

void ProbeRuntimes(const ProbeContext&, Snapshot&) {}

}  // namespace gpudoctor
