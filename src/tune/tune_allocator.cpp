// The allocator's second run: its variable and its plan (tune_allocator.h).
#include "tune/tune_allocator.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace gpudoctor {

std::string AllocatorVariable(const std::string& backend) {
  return backend == "rocm" ? "PYTORCH_HIP_ALLOC_CONF" : "PYTORCH_CUDA_ALLOC_CONF";
}

namespace {

const TuneBatchSearch* SearchOf(const TuneChildOutput& out, const std::string& model) {
  for (const auto& s : out.searches)
    if (s.model == model && s.largest > 0) return &s;
  return nullptr;
}

bool Usable(const TuneMeasurement& m) {
  return m.loss_finite && m.batch > 0 && m.units_per_s > 0;
}

}  // namespace

const TuneMeasurement* AllocatorBaseline(const TuneChildOutput& first, const std::string& model) {
  const TuneBatchSearch* search = SearchOf(first, model);
  if (!search) return nullptr;
  // The knob batch is the smallest of the knob runs' (an out-of-memory error halves it for all of them).
  uint32_t knob_batch = 0;
  for (const auto& m : first.measurements)
    if (m.model == model && m.role == "knob" && m.batch > 0 && (knob_batch == 0 || m.batch < knob_batch))
      knob_batch = m.batch;
  const TuneMeasurement* best = nullptr;
  for (const auto& m : first.measurements) {
    if (m.model != model || !Usable(m)) continue;
    if (m.role == "large_batch") return &m;
    if (m.role == "knob" && m.batch == knob_batch && m.precision == search->precision &&
        (!best || m.units_per_s > best->units_per_s))
      best = &m;
  }
  return best;
}

nlohmann::json RepeatPlanEntry(const TuneMeasurement& base) {
  // The role tells the child how the first run timed it (its warm-up and timed steps): the same again.
  return {{"model", base.model},         {"role", base.role},
          {"precision", base.precision}, {"channels_last", base.channels_last},
          {"benchmark", base.benchmark}, {"batch", base.batch},
          {"tf32", base.tf32},           {"fused", base.fused},
          {"sdpa", base.sdpa},           {"compile", base.compile}};
}

std::optional<std::string> AllocatorPlan(const TuneChildOutput& first) {
  nlohmann::json plan = nlohmann::json::array();
  std::vector<std::string> models;
  for (const auto& m : first.measurements)
    if (std::find(models.begin(), models.end(), m.model) == models.end()) models.push_back(m.model);
  // One model: ResNet-50 when it has a baseline, else the first that has one (both would add about 15 s to a
  // full run). A baseline run with torch.compile compiles again in the second child, which for ResNet-50's
  // large batch took 58 s on an H100 against 9 s for the transformer's: the model whose baseline compiles
  // fastest goes first (an eager one compiles nothing).
  std::stable_partition(models.begin(), models.end(), [](const std::string& m) { return m == "resnet50"; });
  auto compile_cost = [&first](const std::string& model) {
    const TuneMeasurement* base = AllocatorBaseline(first, model);
    return base == nullptr || base->compile.empty() ? 0.0 : base->compile_seconds.value_or(1e9);
  };
  std::stable_sort(models.begin(), models.end(), [&](const std::string& a, const std::string& b) {
    return compile_cost(a) < compile_cost(b);
  });
  for (const auto& model : models) {
    const TuneMeasurement* base = AllocatorBaseline(first, model);
    if (!base || !plan.empty()) continue;
    const TuneBatchSearch* search = SearchOf(first, model);
    nlohmann::json entry = RepeatPlanEntry(*base);
    entry["search_precision"] = search->precision;
    entry["search_from"] = search->largest;
    plan.push_back(entry);
  }
  if (plan.empty()) return std::nullopt;
  return plan.dump();
}

}  // namespace gpudoctor
