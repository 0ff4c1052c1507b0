// `gpudoctor topo` output: the text matrix with its legend (the layout of `nvidia-smi topo -m`) and the JSON
// document (docs/topo.md, schema "gpudoctor.topo/1").
#pragma once

#include <string>

#include "topo/topology.h"

namespace gpudoctor {

// `links` adds one line per ordered GPU pair with what the KFD and NVML say about it.
std::string RenderTopologyText(const Topology& topology, bool links);
std::string RenderTopologyJson(const Topology& topology);

}  // namespace gpudoctor
