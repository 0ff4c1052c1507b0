// The JSON form of Snapshot::topology (docs/snapshot-schema.md, `topology`), kept beside the rest of
// snapshot_json.cpp's conversions; `topo --json` writes its links with the same function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/json_reader.h"
#include "snapshot/topology.h"

namespace gpudoctor {

struct Gpu;

nlohmann::ordered_json TopologyToJson(const Topology& topology);

// One ordered pair a != b: {a, b, label, kind, nvlinks, pcie, pcie_source, kfd, p2p_read, p2p_nvlink}.
nlohmann::ordered_json TopologyLinkToJson(const TopoLink& link, size_t a, size_t b);

// "nvlink", "xgmi", "pcie", "unknown" ("self" for the diagonal): the `kind` of a link in JSON.
const char* LinkKindJsonName(LinkKind kind);

// Reads what TopologyToJson wrote. GPUs are named by PCI address; links by indexes into `gpus` of the
// topology, which must be in range. Pairs not listed are unknown ("?"). The first field of the wrong type or
// value is named in `error` (left alone when already set).
void TopologyFromJson(const JsonValue& object, Topology& topology, std::string& error);

}  // namespace gpudoctor
