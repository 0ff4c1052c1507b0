// From the child's measurements to advice: per model, the knob table (each knob's figure without and
// with it, the change, whether to use it and why, all at the knob batch, where the GPU rather than
// Python is the bottleneck), the settings recommended (exactly those of the measured run whose figure
// is quoted), what the guides' generic advice (batch 32, fp32) gives against them, and the lines to
// paste (Python, and environment variables). Pure: a function of TuneChildOutput, tested on planted
// figures.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tune/tune_allocator.h"
#include "tune/tune_library_knobs.h"
#include "tune/tune_protocol.h"

namespace gpudoctor {

// A change smaller than this (in percent) is within the noise of a short timed run. The child judges
// with the same floor (NOISE_PERCENT in data/tune/tune_child.py) to pick the large batch's settings.
inline constexpr double kTuneNoisePercent = 3.0;

struct TuneKnobRow {
  std::string knob;     // "AMP fp16", "AMP bf16", "channels_last", "cudnn.benchmark", "TF32",
                        // "fused optimizer", "attention: flash" (efficient, math), "torch.compile"
                        // ("torch.compile reduce-overhead", ...), the ROCm libraries' rows (skipped),
                        // "batch size", "expandable_segments", "DataLoader workers", "pin_memory"
  std::string without;  // the setting compared against ("fp32", "NCHW", "off", "batch 32")
  std::string with;     // the setting measured ("fp16 autocast + GradScaler", "batch 256", ...)
  std::optional<double> without_rate;
  std::optional<double> with_rate;
  std::optional<double> change_percent;
  bool recommended = false;
  std::string why;
};

struct TuneModelAdvice {
  std::string model;
  std::string unit;  // "images/s", "tokens/s"
  std::vector<TuneKnobRow> knobs;
  uint32_t knob_batch = 0;  // the batch the knob rows were timed at (0: none was)
  // The recommendation: the settings of the measured run whose figure is recommended_rate.
  std::string precision = "fp32";
  bool channels_last = false;
  bool benchmark = false;
  uint32_t batch = 0;
  std::optional<uint32_t> largest_batch;
  std::optional<uint32_t> failed_batch;
  std::optional<double> generic_rate;      // the "generic" run: fp32, NCHW, no benchmark, the base batch
  uint32_t generic_batch = 0;              // 0: no generic run came
  std::optional<double> recommended_rate;  // the recommended settings, measured
  // The other knobs of the recommended run (docs/tune.md, "The other knobs").
  bool tf32 = false;
  bool fused = false;
  std::string sdpa;                       // "" : torch's own choice of attention backend
  std::string compile;                    // "" : eager
  std::optional<double> compile_seconds;  // what compiling the recommended run cost, once
  bool checkpointing = false;             // activation checkpointing (the "activation checkpointing" row)
  std::optional<double> peak_allocated_bytes;  // torch.cuda.max_memory_allocated of the recommended run
  bool expandable_segments = false;            // the allocator setting helped this model
  // The input pipeline (ResNet-50 only): the DataLoader workers that keep this GPU fed, and pin_memory.
  std::optional<uint32_t> loader_workers;
  bool pin_memory = false;
  bool loader_keeps_up = false;
};

struct TuneAdvice {
  std::vector<TuneModelAdvice> models;
  std::vector<std::string> python_lines;                 // what to put in a training script
  std::vector<std::pair<std::string, std::string>> env;  // variables for the shell or an env file
  // What the knobs that are not measured for speed do (the sharing knob, MIOpen's find mode), with sources.
  std::vector<std::string> notes;
};

// `allocator`: the allocator's second run, when it ran (tune_allocator.h); it adds an
// "expandable_segments", "DataLoader workers", "pin_memory" row per model it measured, and the variable to
// `env` when it helps. `library`: the library knobs' runs (tune_library_knobs.h); each adds its row to the
// model it timed, and its variables to `env` when it helps.
TuneAdvice BuildTuneAdvice(const TuneChildOutput& output, const TuneAllocatorRun* allocator = nullptr,
                           const std::vector<TuneLibraryRun>& library = {});

// "AMP bf16, channels_last, cudnn.benchmark, torch.compile, batch 256": the recommended settings, for people.
std::string TuneSettingsLabel(const TuneModelAdvice& m);

// What the recommendation costs besides its speed: "compiling once: 41 s; peak memory: 12.3 GiB" ("" when
// neither was measured).
std::string TuneCostLabel(const TuneModelAdvice& m);

// "+12.5%" / "-3.0%".
std::string FormatChange(double percent);

}  // namespace gpudoctor
