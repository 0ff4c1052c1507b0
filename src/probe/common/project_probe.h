// Which project files pin the GPU packages of each Python environment (project_pins.h reads them): those
// in the folder that holds a venv (`~/proj/.venv` -> `~/proj`), and, for the active environment or the one
// found in the current folder (else the first one listed), those in the current folder and its parents up
// to the home folder (or the root). Read through ctx.fs; nothing else.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Fills PythonEnv::project of each environment in `snap.python_envs`; unreadable or malformed lines go to
// `snap.warnings`.
void ProbeProjects(const ProbeContext& ctx, Snapshot& snap);

// The packages whose pins are recorded: torch, torchvision, torchaudio and the add-ons of the knowledge
// base (data/addon_libraries.toml: their distributions and the CPU twins that shadow them), PEP 503 names.
std::vector<std::string> PinnedPackages(const KnowledgeDb* db);

}  // namespace gpudoctor
