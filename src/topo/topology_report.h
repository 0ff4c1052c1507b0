// `gpudoctor topo` output, a view of a Snapshot's topology: the text matrix with its legend (the layout of
// `nvidia-smi topo -m`) and the JSON document (docs/topo.md, schema "gpudoctor.topo/1"). A snapshot without
// a topology shows as one without GPUs.
#pragma once

#include <string>

#include "snapshot/snapshot.h"

namespace gpudoctor {

// `links` adds one line per ordered GPU pair with what the KFD and NVML say about it.
std::string RenderTopologyText(const Snapshot& snapshot, bool links);
std::string RenderTopologyJson(const Snapshot& snapshot);

}  // namespace gpudoctor
