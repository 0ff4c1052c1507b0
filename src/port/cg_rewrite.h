// Cooperative groups on HIP (issue 32, item 2): the calls HIP lacks but that have a portable equivalent are
// rewritten in place (cg::reduce(tile, v, op) as a shuffle reduction over the tile, cg::plus<T>() and the
// other operators as lambdas), and the members older HIP releases lack (tile.meta_group_rank()) are reported
// per --hip-version with the expression that replaces them. The other features HIP lacks are the hazard
// scan's (hazard_scan.h).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "port/port_edit.h"
#include "port/port_map.h"
#include "port/port_types.h"
#include "port/token_cursor.h"
#include "port/translator.h"

namespace gpudoctor {

// "cooperative_groups" and every alias the file declares for it (`namespace cg = cooperative_groups;`); empty
// when the file never names it (then nothing here applies: one pass, computed once per file).
std::set<std::string> CooperativeGroupsNames(const CodeTokens& code);

// `cg_names`: CooperativeGroupsNames(code). A file that never names cooperative_groups is left alone, even
// where it calls tile.meta_group_rank() on a tile it was given.
void RewriteCooperativeGroups(const CodeTokens& code, const std::set<std::string>& cg_names,
                              const PortMap& map, const PortOptions& options, PortFileReport& report,
                              std::vector<PortEdit>& edits);

}  // namespace gpudoctor
