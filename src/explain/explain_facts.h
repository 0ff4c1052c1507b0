// What makes an explanation concrete: the facts of one machine (a Snapshot) and of the knowledge
// base that bear on a matched message — this GPU's target and the one the message names, the
// override that would work (Linux only), the wheel built for this GPU, the card's memory, the
// allocator variable — and, when nothing matched, the short summary people need to ask for help.
#pragma once

#include <string>
#include <vector>

#include "explain/log_scanner.h"
#include "knowledge/knowledge_db.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct FactLine {
  std::string fact;  // "gpu_arch", "override", ... (ToString(ExplainFact))
  std::string text;  // one sentence about this machine
};

// The lines for every fact the match's entry asks for, in the entry's order. Never guesses: a fact
// the snapshot does not hold is said to be unknown.
std::vector<FactLine> FactsForMatch(const ExplainMatch& match, const Snapshot& snap, const KnowledgeDb& db);

// One fact alone (tests, and entries that share a fact).
std::vector<FactLine> FactLines(ExplainFact fact, const ExplainMatch& match, const Snapshot& snap,
                                const KnowledgeDb& db);

struct SummaryLine {
  std::string label;  // "OS", "GPU 0", "NVIDIA driver", "HSA_OVERRIDE_GFX_VERSION"
  std::string value;
};
// OS, GPUs with their architectures, drivers, ROCm/CUDA runtimes, torch when known, and the
// environment variables that matter: what to paste when asking for help.
std::vector<SummaryLine> HelpSummary(const Snapshot& snap);

// "install" commands of a route with {gfx}, {family}, {variant}, {rocm} filled for `gfx`; "" when the
// route has no command for that shell. Shell: "bash", "powershell", "cmd".
std::string FillRouteCommand(const TorchRoute& route, const std::string& shell, const std::string& gfx,
                             const KnowledgeDb& db);

// How far an override rule of the knowledge base is known to work: "known to work", "runs, but risky", ...
const char* OverrideVerdictText(OverrideVerdict v);
// Where a knowledge-base entry was read: "overrides.toml:18", and "overrides.toml:45, unconfirmed" for an
// entry nobody has compared with its source yet (confirmed = false): what rests on it says so.
std::string DataWhere(const Provenance& p);

}  // namespace gpudoctor
