// The allocator knob of the guides: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PYTORCH_HIP_ALLOC_CONF
// on ROCm) against fragmentation. torch's caching allocator reads the variable once, when it starts, so the
// knob cannot be flipped inside the first child: a second child runs with it in its environment, repeating
// the batch search (from the largest batch the first run found) and the large batch at the same settings.
// This file says which variable, builds the second run's plan from the first run, and holds what it measured.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tune/tune_protocol.h"

namespace gpudoctor {

// The setting measured: segments that grow in place instead of new blocks (c10/cuda/CUDACachingAllocator).
inline constexpr const char* kAllocatorSetting = "expandable_segments:True";

// What the allocator's second run did.
struct TuneAllocatorRun {
  std::string variable;  // "PYTORCH_CUDA_ALLOC_CONF", or "PYTORCH_HIP_ALLOC_CONF" on ROCm
  std::string value;     // kAllocatorSetting
  std::string status;    // the child's status, as TuneRun's ("ok", "timeout", "crashed", ...)
  TuneChildOutput output;
};

// The variable to set for `backend` ("rocm": PYTORCH_HIP_ALLOC_CONF, the name ROCm's guides give; torch's
// ROCm builds read it when PYTORCH_CUDA_ALLOC_CONF is unset. Otherwise PYTORCH_CUDA_ALLOC_CONF).
std::string AllocatorVariable(const std::string& backend);

// The first run's measurement the second run repeats for `model`: the large batch (the settings the knob
// table recommends, at the recommended batch), else (none was timed) the fastest knob run at the knob batch
// and the batch search's precision; none without a search.
const TuneMeasurement* AllocatorBaseline(const TuneChildOutput& first, const std::string& model);

// A plan entry that times `base` again as the first run timed it: its model, role (how the child times it),
// batch and settings. The allocator's plan adds the batch search to it; a library knob's plan is entries
// alone.
nlohmann::json RepeatPlanEntry(const TuneMeasurement& base);

// The second run's plan (the child's --allocator-plan, JSON): one model (ResNet-50 when it has a baseline,
// else the first that has one, to keep a full run under 3 minutes) with a baseline: its batch and
// settings, its role (how the child times it again), and the batch search's precision and largest batch.
// Nothing when no model has one.
std::optional<std::string> AllocatorPlan(const TuneChildOutput& first);

}  // namespace gpudoctor
