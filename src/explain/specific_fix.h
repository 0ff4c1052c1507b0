// The fix for this very log (an entry's `specific_fix`): its sentences filled with the match's captures, the
// log's facts and values derived from them through the knowledge base (docs/explain.md, "specific_fix").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "explain/log_facts.h"
#include "explain/log_scanner.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {

// The derivations a placeholder may name, `{form:argument}`; the argument is a capture name, `log:KIND` or
// another derivation. `{release:ADDON:arg}`, `{release_series:ADDON:arg}`, `{torch_for_addon:ADDON:arg}` and
// `{addon_cuda:ADDON:arg}` name an add-on first, `{status:API:arg}` an API of status_codes.toml.
inline constexpr std::string_view kSpecificFixDerivations[] = {
    "cu",               // a CUDA version's wheel index tag: 11.8 -> cu118
    "cuda_of_index",    // the reverse: cu121, +cu121 or 2.1.0+cu121 -> 12.1
    "release",          // the add-on release built for exactly that torch
    "release_series",   // every add-on release built for that torch's series: 0.0.23 (torch 2.1.1), ...
    "torch_for_addon",  // the torch an add-on release was built for
    "addon_cuda",       // the CUDA (and cuDNN) an add-on release's PyPI build was made with
    "wheel_for_arch",   // the oldest pytorch.org CUDA variant with the capability's cubins: sm_120 -> cu128
    "torch_for_arch",   // the first torch release with such a wheel: sm_120 -> 2.7.0
    "last_wheel_for_arch",  // the newest torch's newest CUDA variant still carrying it: sm_50 -> cu126
    "last_torch_for_arch",  // that torch release
    "lib_version",          // what a library's soname number stands for: libcudart.so.12 -> CUDA 12
    "cuda_of_driver",       // the newest CUDA runtime a Linux driver runs: 470.82.01 -> 11.8
    "driver_after",  // the driver floor of the first CUDA it does not run: 470.82 -> 525.60.13 (CUDA 12.0)
    "cuda_api",      // a driver API version as cudaDriverGetVersion gives it: 11040 -> 11.4
    "cuda_reach",    // the newest runtime a driver of that CUDA runs (minor-version compatibility): 11.4
                     // -> 11.8
    "driver_after_cuda",  // the driver floor of the first CUDA past that reach: 11.4 -> 525.60.13 (CUDA 12.0)
    "major",              // a version's first number: 12.1 -> 12
    "cuda_for_arch",      // the CUDA toolkits whose nvcc compiles for it: compute_89 -> "CUDA 11.8 or newer"
    "status",  // what an API's status code means: {status:vulkan:code} -> "VK_ERROR_DEVICE_LOST (-4): ..."
};

// The value of one placeholder body ("rows", "cu:found", "log:torch", "wheel_for_arch:sm"); "" when a
// capture or fact is missing or the knowledge base has no answer. The knowledge-base entries a derivation
// read are added to `rests_on` when given.
std::string ResolvePlaceholder(std::string_view field, const ExplainMatch& m,
                               const std::vector<ExplainMatch>& all, const std::vector<LogFact>& log_facts,
                               const KnowledgeDb& db, std::vector<const Provenance*>* rests_on = nullptr);

// The entry's specific_fix sentences whose placeholders all resolved, and for a required CUDA version the
// driver it needs. A sentence whose derived values rest on an entry nobody has compared with its source
// says so after it: "(pytorch_wheels.toml:120, unconfirmed)".
std::string SpecificFix(const ExplainMatch& m, const std::vector<ExplainMatch>& all,
                        const std::vector<LogFact>& log_facts, const KnowledgeDb& db);

// The capture names and log fact kinds a placeholder body reads in the end (the argument of every
// derivation, "log:KIND" kept whole), or an error text for an unknown derivation or add-on; tested for
// every catalog sentence.
struct PlaceholderReads {
  std::vector<std::string> names;
  std::string error;
};
PlaceholderReads PlaceholderArguments(std::string_view field, const KnowledgeDb& db);

}  // namespace gpudoctor
