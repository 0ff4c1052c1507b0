// STUB: to be replaced by the real probe.
#include "probe/linux/amd_probe.h"

namespace gpudoctor {

void ProbeAmd(const ProbeContext&, Snapshot&) {}

}  // namespace gpudoctor
