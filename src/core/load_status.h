// How an attempt to load a vendor library (NVML, libcuda, nvrtc, rocBLAS, NCCL ...) ended, or why none was
// made, named once for every layer: the loader's tables (gpu/api), the backends' library lines in verify,
// bench and collectives, and the Snapshot's NVIDIA library probes, with one mapping to the words their JSON
// documents already use.
#pragma once

#include <optional>
#include <string_view>

namespace gpudoctor {

enum class LoadStatus {
  kLoaded,     // opened, and every required symbol bound
  kAbsent,     // no candidate file could be opened
  kBroken,     // opened, but a required symbol is missing or the library's first call failed
  kNotTried,   // a backend did not get to it (an earlier library failed, or it was not needed yet)
  kNotProbed,  // the probe of a recorded machine loads nothing, and no answers of that machine were saved
};

// "loaded", "absent", "broken", "not-tried", "not-probed".
std::string_view LoadStatusName(LoadStatus status);
// The status a word stands for; nullopt for any other word.
std::optional<LoadStatus> LoadStatusFromName(std::string_view name);
// The words, for messages about a word that is none of them: "loaded, absent, broken, not-tried or
// not-probed".
std::string_view LoadStatusNames();

}  // namespace gpudoctor
