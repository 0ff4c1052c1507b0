// What hipcc needs that nvcc gave implicitly (issue 32, item 1): the runtime include nvcc adds to every .cu
// file, a `const void*` cast where HIP's API takes one and CUDA's takes a kernel, and plain loads and
// stores for the cache-hinted ones HIP lacks (__ldcs, __stcg, ...). Each change is an edit beside the
// translator's renames, counted and reported.
#pragma once

#include <vector>

#include "port/port_edit.h"
#include "port/port_map.h"
#include "port/port_types.h"
#include "port/token_cursor.h"

namespace gpudoctor {

// Adds the edits to `edits`, the counts (family "implicit" for the include and the casts, the entry's family
// for a rewritten load or store) and the findings to `report`; sets report.runtime_include_added.
void AddHipNeeds(const CodeTokens& code, const PortMap& map, PortFileReport& report,
                 std::vector<PortEdit>& edits);

}  // namespace gpudoctor
