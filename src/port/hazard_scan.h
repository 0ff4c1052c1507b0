// The scans for code that translates cleanly but may not work on AMD GPUs: warp width assumed to be 32, full
// 32-bit lane masks, ballots kept in 32 bits, inline PTX, texture and surface references, cooperative-groups
// features HIP lacks, __launch_bounds__ above 1024 threads. Each finding carries its line and column.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "port/port_map.h"
#include "port/port_types.h"
#include "port/token_cursor.h"

namespace gpudoctor {

// `cg_names`: the file's names of the cooperative_groups namespace (cg_rewrite.h's CooperativeGroupsNames).
void ScanHazards(const CodeTokens& code, const std::set<std::string>& cg_names, const PortMap& map,
                 std::vector<PortFinding>& findings);

}  // namespace gpudoctor
