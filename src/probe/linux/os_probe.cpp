// STUB: to be replaced by the real probe.
#include "probe/linux/os_probe.h"

namespace gpudoctor {

void ProbeOs(const ProbeContext&, Snapshot&) {}

}  // namespace gpudoctor
