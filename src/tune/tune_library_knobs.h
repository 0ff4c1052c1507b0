// The library knobs: settings of the GPU libraries under PyTorch that are environment variables read when the
// library starts (TunableOp, the cuBLASLt workspace, hipBLASLt against rocBLAS, MIOpen's find mode), so, like
// the allocator's, each is timed in a child of its own with its variable set: a figure of the first run again
// (LibraryBaseline) without a batch search. This file says which knobs apply to a backend, with
// what values, on which model, and builds a run's plan.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tune/tune_protocol.h"

namespace gpudoctor {

struct TuneLibraryKnob {
  std::string name;     // the skip item's NAME (MODEL/knob/NAME): "tunableop", "cublaslt-workspace", ...
  std::string row;      // the knob table's row: "TunableOp", "cuBLASLt workspace", ...
  std::string without;  // what runs without it: "off", "torch's default (1 MiB)", ...
  std::vector<std::pair<std::string, std::string>> env;  // the variables set for its run
  std::string model;  // the model it is timed on: GEMM knobs "transformer", convolution knobs "resnet50"
};

// What one knob's run did.
struct TuneLibraryRun {
  TuneLibraryKnob knob;
  std::string status;  // the child's status, as TuneRun's ("ok", "timeout", "crashed", ...)
  TuneChildOutput output;
};

// The knobs timed on `backend` ("cuda", "rocm"; none on "cpu"). `tunableop_file`: where TunableOp keeps what
// it tuned (PYTORCH_TUNABLEOP_FILENAME), for the user to reuse; "": torch's default name in the working
// folder.
std::vector<TuneLibraryKnob> LibraryKnobsFor(const std::string& backend, const std::string& tunableop_file);

// The first run's measurement a library knob's run repeats for `model`: the fastest eager knob run (the knob
// batch, where the GPU is the bottleneck). Eager, because the knobs act on the libraries' kernels, which a
// compiled model calls too, and a compile in each knob's child would cost what the whole run cannot afford
// (ResNet-50: over 30 s on an H100). Null when the model has none.
const TuneMeasurement* LibraryBaseline(const TuneChildOutput& first, const std::string& model);

// The plan of `knob`'s run (the child's --library-plan, JSON): its model's LibraryBaseline, else the first
// model that has one. Nothing when no model has one.
std::optional<std::string> LibraryKnobPlan(const TuneChildOutput& first, const TuneLibraryKnob& knob);

// The variables as one line: "A=1 B=2".
std::string LibraryKnobSetting(const TuneLibraryKnob& knob);

}  // namespace gpudoctor
