// The fix for a loader failure, read with the loader model (data/shared_libraries.toml): which component
// ships the library a message names and what its version means ("libcublasLt.so.11" is cuBLAS of CUDA 11),
// how the log's install route gets it (pip nvidia-* wheels, conda, the system, the driver; a container or
// WSL maps the driver's libraries in), what an undefined symbol says about who was built against what,
// and which GCC or distribution a missing GLIBCXX_/GLIBC_ symbol version needs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/explain_catalog.h"
#include "explain/log_facts.h"
#include "explain/log_scanner.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {

struct LoaderFix {
  std::string library;    // the file the message names ("libcublasLt.so.11"), "" when none
  std::string component;  // "cuBLAS (CUDA 11)", "" when the loader model does not know it
  std::string requester;  // the binary that asked, when the message says
  std::string route;  // "pip", "conda", "system", "container", "wsl", "windows": how the log's env is managed
  std::string advice;  // sentences
  ShellCommands commands;
};

// The install route a log shows: "container", "wsl", "conda", "pip" or "system" (Linux), "windows".
std::string LoaderRouteOf(const ExplainMatch& match, const std::vector<LogFact>& log_facts, bool windows);

// nullopt when the match captured nothing the model can read (no library, symbol or version).
std::optional<LoaderFix> LoaderFixFor(const ExplainMatch& match, const std::vector<LogFact>& log_facts,
                                      bool windows, const KnowledgeDb& db);

}  // namespace gpudoctor
