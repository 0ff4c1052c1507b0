// STUB: to be replaced by the real probe.
#include "probe/linux/nvidia_probe.h"

namespace gpudoctor {

void ProbeNvidia(const ProbeContext&, Snapshot&) {}

}  // namespace gpudoctor
