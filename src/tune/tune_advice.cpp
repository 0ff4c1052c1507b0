// The knob table and the recommendation (tune_advice.h). Each knob is judged on its own against the
// settings already chosen: precision first (at NCHW, benchmark off), then channels_last at that
// precision, then cudnn.benchmark at both, then the batch size with all of them.
#include "tune/tune_advice.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace gpudoctor {
namespace {

using Key = std::tuple<std::string, bool, bool>;  // precision, channels_last, benchmark

std::string PrecisionLabel(const std::string& p) {
  if (p == "fp16") return "fp16 autocast + GradScaler";
  if (p == "bf16") return "bf16 autocast";
  return "fp32";
}

TuneKnobRow Row(std::string knob, std::string without, std::string with, std::optional<double> without_rate,
                std::optional<double> with_rate) {
  TuneKnobRow row;
  row.knob = std::move(knob);
  row.without = std::move(without);
  row.with = std::move(with);
  row.without_rate = without_rate;
  row.with_rate = with_rate;
  return row;
}

std::optional<double> Change(std::optional<double> without, std::optional<double> with) {
  if (!without || !with || *without <= 0) return std::nullopt;
  return (*with / *without - 1) * 100;
}

// Fills change, recommended and why from the two rates.
void Judge(TuneKnobRow& row, const std::string& unit) {
  row.change_percent = Change(row.without_rate, row.with_rate);
  if (!row.change_percent) {
    row.why =
        !row.with_rate ? "not measured (see the skipped and failed items)" : "no baseline to compare with";
    return;
  }
  double c = *row.change_percent;
  if (c >= kTuneNoisePercent) {
    row.recommended = true;
    row.why = FormatChange(c) + " " + unit;
  } else if (c <= -kTuneNoisePercent) {
    row.why = "slower here (" + FormatChange(c) + " " + unit + ")";
  } else {
    row.why = "within the noise (" + FormatChange(c) + "; below " + FormatChange(kTuneNoisePercent) + ")";
  }
}

TuneModelAdvice AdviseModel(const std::string& model, const TuneChildOutput& out, bool rocm) {
  TuneModelAdvice a;
  a.model = model;
  std::map<Key, const TuneMeasurement*> knob;
  const TuneMeasurement* large = nullptr;
  for (const auto& m : out.measurements) {
    if (m.model != model || !m.loss_finite || !(m.units_per_s > 0)) continue;
    if (a.unit.empty()) a.unit = m.unit;
    if (m.role == "large_batch") {
      large = &m;
    } else {
      knob[{m.precision, m.channels_last, m.benchmark}] = &m;
      a.generic_batch = m.batch;
    }
  }
  auto rate = [&](const std::string& p, bool cl, bool bench) -> std::optional<double> {
    auto it = knob.find({p, cl, bench});
    return it == knob.end() ? std::nullopt : std::optional<double>(it->second->units_per_s);
  };
  a.generic_rate = rate("fp32", false, false);
  a.batch = a.generic_batch;

  // Precision: each mixed precision against fp32; the fastest recommended one wins.
  for (const std::string p : {"fp16", "bf16"}) {
    TuneKnobRow row = Row("AMP " + p, "fp32", PrecisionLabel(p), a.generic_rate, rate(p, false, false));
    Judge(row, a.unit);
    if (row.recommended &&
        (!rate(a.precision, false, false) || *row.with_rate > *rate(a.precision, false, false)))
      a.precision = p;
    a.knobs.push_back(row);
  }
  for (auto& row : a.knobs)
    if (row.knob != "AMP " + a.precision && row.recommended) {
      row.recommended = false;
      row.why += "; AMP " + a.precision + " is faster";
    }
  const bool convolutional = knob.count({a.precision, true, false}) || knob.count({a.precision, false, true});
  if (convolutional) {
    TuneKnobRow cl = Row("channels_last", "NCHW", "channels_last (model and input)",
                         rate(a.precision, false, false), rate(a.precision, true, false));
    Judge(cl, a.unit);
    a.channels_last = cl.recommended;
    a.knobs.push_back(cl);
    TuneKnobRow bench =
        Row(rocm ? "cudnn.benchmark (MIOpen find)" : "cudnn.benchmark", "off", "on",
            rate(a.precision, a.channels_last, false), rate(a.precision, a.channels_last, true));
    Judge(bench, a.unit);
    a.benchmark = bench.recommended;
    a.knobs.push_back(bench);
  }
  a.recommended_rate = rate(a.precision, a.channels_last, a.benchmark);

  for (const auto& s : out.searches) {
    if (s.model != model) continue;
    a.largest_batch = s.largest;
    a.failed_batch = s.failed_at;
  }
  if (large) {
    // The large batch is timed at the batch search's precision (the one it fitted at), which may not be
    // the one that won at the small batch, where a big GPU waits on the CPU and AMP gains little.
    const bool other_precision = large->precision != a.precision;
    TuneKnobRow row = Row("batch size", "batch " + std::to_string(a.generic_batch),
                          "batch " + std::to_string(large->batch) +
                              (other_precision ? " with " + PrecisionLabel(large->precision) : ""),
                          a.recommended_rate, large->units_per_s);
    Judge(row, a.unit);
    if (row.recommended) {
      a.batch = large->batch;
      a.recommended_rate = large->units_per_s;
      // The figure shown is the figure of the lines given: recommend the precision it was measured at.
      if (other_precision) {
        a.precision = large->precision;
        row.why += " (measured with " + PrecisionLabel(large->precision) + ")";
      }
    }
    a.knobs.push_back(row);
  }
  return a;
}

}  // namespace

std::string FormatChange(double percent) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", percent);
  return buf;
}

TuneAdvice BuildTuneAdvice(const TuneChildOutput& output) {
  TuneAdvice advice;
  const bool rocm = output.hello && output.hello->backend == "rocm";
  std::vector<std::string> models;
  for (const auto& m : output.measurements)
    if (std::find(models.begin(), models.end(), m.model) == models.end() && !m.model.empty())
      models.push_back(m.model);
  for (const auto& model : models) advice.models.push_back(AdviseModel(model, output, rocm));

  // The lines to paste, per model (a script trains one of them; the settings may differ).
  for (const auto& a : advice.models) {
    std::vector<std::string> lines;
    if (a.benchmark) lines.push_back("torch.backends.cudnn.benchmark = True");
    if (a.channels_last) {
      lines.push_back("model = model.to(memory_format=torch.channels_last)");
      lines.push_back("images = images.to(memory_format=torch.channels_last)  # each input batch");
    }
    if (a.precision == "bf16")
      lines.push_back("with torch.autocast(\"cuda\", dtype=torch.bfloat16):  # forward pass and loss");
    if (a.precision == "fp16") {
      lines.push_back("scaler = torch.amp.GradScaler(\"cuda\")");
      lines.push_back("with torch.autocast(\"cuda\", dtype=torch.float16):  # forward pass and loss");
      lines.push_back("scaler.scale(loss).backward(); scaler.step(optimizer); scaler.update()");
    }
    if (a.batch && a.batch != a.generic_batch)
      lines.push_back("batch_size = " + std::to_string(a.batch) + "  # largest that fitted: " +
                      (a.largest_batch ? std::to_string(*a.largest_batch) : std::string("n/a")));
    if (lines.empty()) continue;
    advice.python_lines.push_back("# " + a.model + ":");
    advice.python_lines.insert(advice.python_lines.end(), lines.begin(), lines.end());
  }
  return advice;
}

}  // namespace gpudoctor
