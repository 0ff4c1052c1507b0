// The knob table and the recommendation (tune_advice.h). The knob rows are the child's runs at the knob
// batch (a quarter of the recommended batch, where a big GPU is busy; at the guides' batch 32 it waits on
// Python and every knob that adds CPU work looked slower). Each knob is judged on its own against the
// settings already chosen: precision first (at NCHW, benchmark off), then channels_last at that
// precision, then cudnn.benchmark at both, then the batch size with all of them. The child picks the
// large batch's settings by the same rules (chosen_settings in data/tune/tune_child.py).
#include "tune/tune_advice.h"

#include <algorithm>
#include <cmath>
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

// "bf16 autocast, channels_last, cudnn.benchmark": the settings of one run, for a label.
std::string SettingsLabel(const TuneMeasurement& m) {
  std::string label = PrecisionLabel(m.precision);
  if (m.channels_last) label += ", channels_last";
  if (m.benchmark) label += ", cudnn.benchmark";
  return label;
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

// The same arithmetic as the child's change_percent, so both judge a figure on the floor alike.
std::optional<double> Change(std::optional<double> without, std::optional<double> with) {
  if (!without || !with || *without <= 0 || *with <= 0) return std::nullopt;
  return (*with / *without - 1) * 100;
}

// Fills change, recommended and why from the two rates; `where` says where they were measured
// ("at batch 512"), or is empty.
void Judge(TuneKnobRow& row, const std::string& unit, const std::string& where) {
  row.change_percent = Change(row.without_rate, row.with_rate);
  if (!row.change_percent) {
    row.why =
        !row.with_rate ? "not measured (see the skipped and failed items)" : "no baseline to compare with";
    return;
  }
  const double c = *row.change_percent;
  const std::string at = where.empty() ? "" : " " + where;
  if (c >= kTuneNoisePercent) {
    row.recommended = true;
    row.why = FormatChange(c) + " " + unit + at;
  } else if (c <= -kTuneNoisePercent) {
    row.why = "slower here (" + FormatChange(c) + " " + unit + at + ")";
  } else {
    char floor[32];
    std::snprintf(floor, sizeof floor, "%.0f%%", kTuneNoisePercent);
    row.why =
        "no measurable effect (" + FormatChange(c) + at + ", within the " + floor + " noise of a timed run)";
  }
}

TuneModelAdvice AdviseModel(const std::string& model, const TuneChildOutput& out, bool rocm) {
  TuneModelAdvice a;
  a.model = model;
  // The knob batch is the smallest batch of the knob runs: an out-of-memory error halves it for all of
  // them, so runs at a larger batch before it are not part of the table.
  for (const auto& m : out.measurements) {
    if (m.model != model) continue;
    if (a.unit.empty()) a.unit = m.unit;
    if (m.role == "knob" && m.batch > 0 && (a.knob_batch == 0 || m.batch < a.knob_batch))
      a.knob_batch = m.batch;
    if (m.role == "generic") a.generic_batch = m.batch;
  }
  std::map<Key, const TuneMeasurement*> knob;
  const TuneMeasurement* large = nullptr;
  for (const auto& m : out.measurements) {
    if (m.model != model || !m.loss_finite || !(m.units_per_s > 0)) continue;
    if (m.role == "large_batch") large = &m;
    if (m.role == "generic") a.generic_rate = m.units_per_s;
    if (m.role == "knob" && m.batch == a.knob_batch) knob[{m.precision, m.channels_last, m.benchmark}] = &m;
  }
  auto rate = [&](const std::string& p, bool cl, bool bench) -> std::optional<double> {
    auto it = knob.find({p, cl, bench});
    return it == knob.end() ? std::nullopt : std::optional<double>(it->second->units_per_s);
  };
  const std::string at = "at batch " + std::to_string(a.knob_batch);

  // Precision: each mixed precision against fp32; the fastest recommended one wins, and bf16 when fp16
  // is not measurably faster (bf16 needs no GradScaler and does not overflow).
  const std::optional<double> fp32 = rate("fp32", false, false);
  bool bf16_helps = false;
  for (const std::string p : {"fp16", "bf16"}) {
    TuneKnobRow row = Row("AMP " + p, "fp32", PrecisionLabel(p), fp32, rate(p, false, false));
    Judge(row, a.unit, at);
    if (row.recommended &&
        (!rate(a.precision, false, false) || *row.with_rate > *rate(a.precision, false, false)))
      a.precision = p;
    if (p == "bf16") bf16_helps = row.recommended;
    a.knobs.push_back(row);
  }
  if (a.precision == "fp16" && bf16_helps &&
      *Change(rate("bf16", false, false), rate("fp16", false, false)) < kTuneNoisePercent)
    a.precision = "bf16";
  for (auto& row : a.knobs) {
    if (row.knob == "AMP " + a.precision || !row.recommended) continue;
    row.recommended = false;
    const std::optional<double> versus = Change(rate(a.precision, false, false), row.with_rate);
    row.why += versus && std::fabs(*versus) < kTuneNoisePercent
                   ? "; no measurable difference from AMP " + a.precision + ", which needs no GradScaler"
                   : "; AMP " + a.precision + " is faster";
  }
  const bool convolutional = knob.count({a.precision, true, false}) || knob.count({a.precision, false, true});
  if (convolutional) {
    TuneKnobRow cl = Row("channels_last", "NCHW", "channels_last (model and input)",
                         rate(a.precision, false, false), rate(a.precision, true, false));
    Judge(cl, a.unit, at);
    a.channels_last = cl.recommended;
    a.knobs.push_back(cl);
    TuneKnobRow bench =
        Row(rocm ? "cudnn.benchmark (MIOpen find)" : "cudnn.benchmark", "off", "on",
            rate(a.precision, a.channels_last, false), rate(a.precision, a.channels_last, true));
    Judge(bench, a.unit, at);
    a.benchmark = bench.recommended;
    a.knobs.push_back(bench);
  }
  // The recommendation so far: the knob run with the chosen settings, its figure and its batch.
  a.recommended_rate = rate(a.precision, a.channels_last, a.benchmark);
  a.batch = a.knob_batch ? a.knob_batch : a.generic_batch;

  for (const auto& s : out.searches) {
    if (s.model != model) continue;
    a.largest_batch = s.largest;
    a.failed_batch = s.failed_at;
  }
  if (large) {
    // The child times the large batch with the settings chosen above; should they differ, the row says
    // so and the recommendation takes the settings of the figure it quotes.
    const bool same = large->precision == a.precision && large->channels_last == a.channels_last &&
                      large->benchmark == a.benchmark;
    TuneKnobRow row =
        Row("batch size", "batch " + std::to_string(a.batch),
            "batch " + std::to_string(large->batch) + (same ? "" : " with " + SettingsLabel(*large)),
            a.recommended_rate, large->units_per_s);
    Judge(row, a.unit, "");
    if (row.recommended) {
      a.batch = large->batch;
      a.recommended_rate = large->units_per_s;
      a.precision = large->precision;
      a.channels_last = large->channels_last;
      a.benchmark = large->benchmark;
      if (!same) row.why += " (measured with " + SettingsLabel(*large) + ")";
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
    // The batch when it is not the guides' (the generic run's; without one, the knob runs').
    if (a.batch && a.batch != (a.generic_batch ? a.generic_batch : a.knob_batch))
      lines.push_back("batch_size = " + std::to_string(a.batch) + "  # largest that fitted: " +
                      (a.largest_batch ? std::to_string(*a.largest_batch) : std::string("n/a")));
    if (lines.empty()) continue;
    advice.python_lines.push_back("# " + a.model + ":");
    advice.python_lines.insert(advice.python_lines.end(), lines.begin(), lines.end());
  }
  return advice;
}

}  // namespace gpudoctor
