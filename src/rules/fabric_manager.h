// NVIDIA Fabric Manager on an NVSwitch system (fabric_manager.cpp), from snapshot nvidia.fabric_manager
// (probe/linux/fabric_manager.h): present at all, of the loaded driver's version, enabled as a service,
// and on Blackwell boards beside the NVLink Subnet Manager.
#pragma once

#include <vector>

#include "rules/rule_context.h"

namespace gpudoctor {

// runtime.fabric_manager_missing (error), runtime.fabric_manager_version (error),
// runtime.fabric_manager_disabled (warning), runtime.nvlsm_missing (error). Nothing without an NVSwitch,
// inside a container (Fabric Manager runs on the host) or off Linux.
void NvidiaFabricManager(const RuleContext& ctx, std::vector<Finding>& out);

}  // namespace gpudoctor
