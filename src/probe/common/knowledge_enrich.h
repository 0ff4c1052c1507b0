// The refine stage after probing: what the machine itself could not say, the
// knowledge base can — a marketing name for a PCI id no name file knows, the
// compute capability of an NVIDIA GPU with no NVML answer (nouveau), the
// family of a gfx target. Pure: no I/O, the snapshot in, the snapshot out.
#pragma once

#include "knowledge/knowledge_db.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

void ApplyKnowledge(const KnowledgeDb& db, Snapshot& snapshot);

}  // namespace gpudoctor
