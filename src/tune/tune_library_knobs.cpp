// The library knobs, their variables and their run's plan (tune_library_knobs.h).
#include "tune/tune_library_knobs.h"

#include <nlohmann/json.hpp>

#include "tune/tune_allocator.h"

namespace gpudoctor {

std::vector<TuneLibraryKnob> LibraryKnobsFor(const std::string& backend, const std::string& tunableop_file) {
  std::vector<TuneLibraryKnob> knobs;
  if (backend != "cuda" && backend != "rocm") return knobs;
  // TunableOp (aten/src/ATen/cuda/tunable/README.md): the first GEMM of each shape times every solution of
  // the BLAS libraries and keeps the fastest; PYTORCH_TUNABLEOP_FILENAME keeps them for the next run.
  TuneLibraryKnob tunableop{
      "tunableop", "TunableOp", "off", {{"PYTORCH_TUNABLEOP_ENABLED", "1"}}, "transformer"};
  if (!tunableop_file.empty()) tunableop.env.emplace_back("PYTORCH_TUNABLEOP_FILENAME", tunableop_file);
  knobs.push_back(tunableop);
  if (backend == "cuda") {
    // The cuBLASLt workspace torch gives its matmuls, in KiB (CUBLASLT_WORKSPACE_SIZE, aten/src/ATen/cuda/
    // CUDABlas.cpp); cuBLAS's documentation recommends 32 MiB on Hopper, where some kernels need more than
    // the 1 MiB torch long defaulted to.
    knobs.push_back({"cublaslt-workspace",
                     "cuBLASLt workspace",
                     "torch's default",
                     {{"CUBLASLT_WORKSPACE_SIZE", "32768"}},
                     "transformer"});
  } else {
    // hipBLASLt instead of rocBLAS for torch's matmuls (TORCH_BLAS_PREFER_HIPBLASLT,
    // aten/src/ATen/Context.cpp).
    knobs.push_back(
        {"hipblaslt", "hipBLASLt", "torch's default", {{"TORCH_BLAS_PREFER_HIPBLASLT", "1"}}, "transformer"});
    // MIOpen's full search of convolution kernels when torch does not ask for one (MIOpen's "Find and
    // immediate mode": NORMAL against the default DYNAMIC_HYBRID).
    knobs.push_back({"miopen-find-mode",
                     "MIOPEN_FIND_MODE",
                     "DYNAMIC_HYBRID",
                     {{"MIOPEN_FIND_MODE", "NORMAL"}},
                     "resnet50"});
  }
  return knobs;
}

const TuneMeasurement* LibraryBaseline(const TuneChildOutput& first, const std::string& model) {
  const TuneMeasurement* best = nullptr;
  for (const auto& m : first.measurements)
    if (m.model == model && m.role == "knob" && m.compile.empty() && m.loss_finite && m.batch > 0 &&
        m.units_per_s > 0 && (!best || m.units_per_s > best->units_per_s))
      best = &m;
  return best;
}

std::optional<std::string> LibraryKnobPlan(const TuneChildOutput& first, const TuneLibraryKnob& knob) {
  const TuneMeasurement* base = LibraryBaseline(first, knob.model);
  for (const auto& m : first.measurements) {
    if (base) break;
    base = LibraryBaseline(first, m.model);
  }
  if (!base) return std::nullopt;
  return nlohmann::json::array({RepeatPlanEntry(*base)}).dump();
}

std::string LibraryKnobSetting(const TuneLibraryKnob& knob) {
  std::string out;
  for (const auto& [name, value] : knob.env) out += (out.empty() ? "" : " ") + name + "=" + value;
  return out;
}

}  // namespace gpudoctor
