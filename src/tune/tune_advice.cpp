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
#include <vector>

namespace gpudoctor {
namespace {

using Key = std::tuple<std::string, bool, bool>;  // precision, channels_last, benchmark

std::string PrecisionLabel(const std::string& p) {
  if (p == "fp16") return "fp16 autocast + GradScaler";
  if (p == "bf16") return "bf16 autocast";
  return "fp32";
}

// The other knobs of a run (docs/tune.md, "The other knobs"): all off in the knob table's own runs.
struct Extras {
  bool tf32 = false;
  bool fused = false;
  std::string sdpa;
  std::string compile;
};

bool SameExtras(const TuneMeasurement& m, const Extras& e) {
  return m.tf32 == e.tf32 && m.fused == e.fused && m.sdpa == e.sdpa && m.compile == e.compile;
}

// The recommendation takes a timed run's extras (TF32, fused optimizer, attention backend, compile mode) and
// its figures: rate, compile time, memory peak.
void AdoptExtrasAndFigures(TuneModelAdvice& a, const TuneMeasurement& m) {
  a.tf32 = m.tf32;
  a.fused = m.fused;
  a.sdpa = m.sdpa;
  a.compile = m.compile;
  a.recommended_rate = m.units_per_s;
  a.compile_seconds = m.compile_seconds;
  a.peak_allocated_bytes = m.peak_allocated_bytes;
}

// Whether `m` ran with that layout, cudnn.benchmark and extras (its precision and batch aside).
bool SameSettingsButPrecision(const TuneMeasurement& m, bool channels_last, bool benchmark, const Extras& e) {
  return m.channels_last == channels_last && m.benchmark == benchmark && SameExtras(m, e);
}

std::string CompileLabel(const std::string& mode) {
  return mode == "default" ? "torch.compile" : "torch.compile " + mode;
}

// "bf16 autocast, channels_last, cudnn.benchmark": the settings of one run, for a label.
std::string SettingsLabel(const TuneMeasurement& m) {
  std::string label = PrecisionLabel(m.precision);
  if (m.channels_last) label += ", channels_last";
  if (m.benchmark) label += ", cudnn.benchmark";
  if (m.tf32) label += ", TF32";
  if (m.fused) label += ", fused SGD";
  if (!m.sdpa.empty()) label += ", " + m.sdpa + " attention";
  if (!m.compile.empty()) label += ", " + CompileLabel(m.compile);
  if (m.checkpointing) label += ", activation checkpointing";
  return label;
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s >= 10 ? "%.0f s" : "%.1f s", s);
  return buf;
}

// The reason the child gave for not measuring `name` ("tf32", "compile-default", ...) for `model`.
std::optional<std::string> KnobSkip(const TuneChildOutput& out, const std::string& model,
                                    const std::string& name) {
  for (const auto& s : out.skips)
    if (s.item == model + "/knob/" + name) return s.reason;
  return std::nullopt;
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

// The knob run at the knob batch with these settings and `e`, or null.
const TuneMeasurement* ExtraRun(const TuneModelAdvice& a, const TuneChildOutput& out,
                                const std::string& precision, bool channels_last, bool benchmark,
                                const Extras& e) {
  for (const auto& m : out.measurements)
    if (m.model == a.model && m.role == "knob" && m.batch == a.knob_batch && m.loss_finite &&
        m.units_per_s > 0 && m.precision == precision && m.channels_last == channels_last &&
        m.benchmark == benchmark && SameExtras(m, e))
      return &m;
  return nullptr;
}

// The knob run at the knob batch with the table's chosen settings and `e`, or null.
const TuneMeasurement* ExtraRun(const TuneModelAdvice& a, const TuneChildOutput& out, const Extras& e) {
  return ExtraRun(a, out, a.precision, a.channels_last, a.benchmark, e);
}

// A row of the other knobs: `with` against `base` (the settings chosen before it), or, when the child did not
// measure it, its reason. No row when there is neither (an older child's output).
TuneKnobRow* ExtraRow(TuneModelAdvice& a, const TuneChildOutput& out, const std::string& name,
                      std::string label, std::string without, std::string with_label,
                      const TuneMeasurement* base, const TuneMeasurement* with, const std::string& at) {
  if (!with) {
    std::optional<std::string> reason = KnobSkip(out, a.model, name);
    if (!reason) return nullptr;
    TuneKnobRow row = Row(std::move(label), std::move(without), std::move(with_label),
                          base ? std::optional<double>(base->units_per_s) : std::nullopt, std::nullopt);
    row.why = "not measured: " + *reason;
    a.knobs.push_back(row);
    return nullptr;
  }
  TuneKnobRow row = Row(std::move(label), std::move(without), std::move(with_label),
                        base ? std::optional<double>(base->units_per_s) : std::nullopt, with->units_per_s);
  Judge(row, a.unit, at);
  a.knobs.push_back(row);
  return &a.knobs.back();
}

// Of the rows a.knobs[first..] (one choice among several: the attention backends, the compile modes), the
// fastest recommended one stays recommended; returns its index, or -1.
int KeepFastest(TuneModelAdvice& a, size_t first) {
  int best = -1;
  for (size_t i = first; i < a.knobs.size(); ++i)
    if (a.knobs[i].recommended && (best < 0 || *a.knobs[i].with_rate > *a.knobs[best].with_rate))
      best = static_cast<int>(i);
  for (size_t i = first; i < a.knobs.size(); ++i)
    if (a.knobs[i].recommended && static_cast<int>(i) != best) {
      a.knobs[i].recommended = false;
      a.knobs[i].why += "; " + a.knobs[best].knob + " is faster";
    }
  return best;
}

// The other knobs, on top of the settings chosen from the knob runs, each against the settings chosen before
// it (the child's chosen_extras picks by the same rules, so the run to compare with is the one it timed):
// TF32 (fp32 only), the fused optimizer, the attention backend (the transformer), torch.compile; then the
// ROCm libraries' rows (skipped, with the reason). The recommendation takes the chosen ones.
void AddExtraRows(TuneModelAdvice& a, const TuneChildOutput& out, const std::string& at) {
  Extras chosen;
  const TuneMeasurement* current = ExtraRun(a, out, chosen);
  auto next = [&](Extras e) { return current ? ExtraRun(a, out, e) : nullptr; };
  Extras e = chosen;
  e.tf32 = true;
  if (a.precision != "fp32") {
    // A mixed precision was chosen: the child timed TF32 at fp32 (NCHW, benchmark off) for this row only.
    const TuneMeasurement* fp32 = ExtraRun(a, out, "fp32", false, false, Extras{});
    if (TuneKnobRow* row = ExtraRow(a, out, "tf32", "TF32", "fp32 matmuls (torch's default)",
                                    "TF32 matmuls and convolutions", fp32,
                                    fp32 ? ExtraRun(a, out, "fp32", false, false, e) : nullptr, at);
        row && row->change_percent) {
      row->recommended = false;
      row->why += "; for fp32 training: AMP " + a.precision + " is the precision recommended here";
    }
  } else if (TuneKnobRow* row = ExtraRow(a, out, "tf32", "TF32", "fp32 matmuls (torch's default)",
                                         "TF32 matmuls and convolutions", current, next(e), at);
             row && row->recommended) {
    chosen = e;
    current = next(e);
  }
  e = chosen;
  e.fused = true;
  if (TuneKnobRow* row = ExtraRow(a, out, "fused", "fused optimizer", "SGD (foreach)", "SGD(fused=True)",
                                  current, next(e), at);
      row && row->recommended) {
    chosen = e;
    current = next(e);
  }
  size_t first = a.knobs.size();
  for (const std::string backend : {"flash", "efficient", "math"}) {
    e = chosen;
    e.sdpa = backend;
    ExtraRow(a, out, "sdpa-" + backend, "attention: " + backend, "torch's choice",
             backend + " attention only", current, next(e), at);
  }
  if (int best = KeepFastest(a, first); best >= 0) {
    chosen.sdpa = a.knobs[best].knob.substr(std::string("attention: ").size());
    current = next(chosen);
  }
  first = a.knobs.size();
  const TuneMeasurement* eager = current;
  for (const std::string mode : {"default", "reduce-overhead", "max-autotune"}) {
    e = chosen;
    e.compile = mode;
    const TuneMeasurement* with = next(e);
    TuneKnobRow* row = ExtraRow(
        a, out, "compile-" + mode, CompileLabel(mode), "eager",
        "torch.compile(model" + (mode == "default" ? "" : ", mode=\"" + mode + "\"") + ")", eager, with, at);
    if (!row || !with || !with->compile_seconds || !eager || eager->timed_steps == 0 ||
        with->timed_steps == 0)
      continue;
    // Compiling costs once; each step then saves the difference: the steps after which it has paid back.
    const double saved = eager->seconds / eager->timed_steps - with->seconds / with->timed_steps;
    const double compile = *with->compile_seconds;
    if (!std::isfinite(compile) || compile < 0 || !std::isfinite(saved)) continue;  // not a time: no claim
    row->why += "; compiling took " + Seconds(compile);
    const double steps = saved > 0 ? std::ceil(compile / saved) : -1;
    if (steps >= 0 && steps < 1e15)
      row->why += ", paid back after " + std::to_string(static_cast<uint64_t>(steps)) + " steps";
    else
      row->why += ", never paid back";
  }
  if (int best = KeepFastest(a, first); best >= 0) {
    for (const std::string mode : {"default", "reduce-overhead", "max-autotune"})
      if (a.knobs[best].knob == CompileLabel(mode)) chosen.compile = mode;
    current = next(chosen);
  }
  // The library knobs that were not timed (another backend's, or --quick): their rows say why. Timed ones
  // get theirs from their own runs (AddLibraryRow).
  for (const std::string backend : {"cuda", "rocm"})
    for (const TuneLibraryKnob& k : LibraryKnobsFor(backend, ""))
      if (backend == "rocm" || k.name != "tunableop")
        ExtraRow(a, out, k.name, k.row, k.without, LibraryKnobSetting(k), nullptr, nullptr, at);
  if (current) AdoptExtrasAndFigures(a, *current);  // `current` ran with `chosen` (SameExtras)
}

// The large-batch run the batch size row judges. The child times the table's settings at the large batch
// first, then, when the other mixed precision also beat fp32 at the knob batch and the large batch was
// faster, that precision with every other setting the same. The knob batch's precision was judged eager and
// at a quarter of the work per step; at the batch recommended the knob table's rule decides again: bf16
// unless fp16 is measurably faster (bf16 needs no GradScaler). The row says which and why. Null without
// a large batch.
const TuneMeasurement* LargeBatchRun(const TuneModelAdvice& a,
                                     const std::vector<const TuneMeasurement*>& large,
                                     std::optional<TuneKnobRow>& precision_row) {
  if (large.empty()) return nullptr;
  const TuneMeasurement* first = large.front();
  const TuneMeasurement* other = nullptr;
  for (const TuneMeasurement* m : large)
    if (m->batch == first->batch &&
        SameSettingsButPrecision(*m, first->channels_last, first->benchmark,
                                 Extras{first->tf32, first->fused, first->sdpa, first->compile}) &&
        ((m->precision == "fp16" && first->precision == "bf16") ||
         (m->precision == "bf16" && first->precision == "fp16")))
      other = m;
  if (!other) return large.back();
  const TuneMeasurement* fp16 = first->precision == "fp16" ? first : other;
  const TuneMeasurement* bf16 = fp16 == first ? other : first;
  const bool fp16_faster = *Change(bf16->units_per_s, fp16->units_per_s) >= kTuneNoisePercent;
  const TuneMeasurement* pick = fp16_faster ? fp16 : bf16;
  const std::string at = "at batch " + std::to_string(first->batch);
  TuneKnobRow row = Row("precision at the large batch", "AMP " + first->precision + " (the knob table's)",
                        "AMP " + other->precision, first->units_per_s, other->units_per_s);
  Judge(row, a.unit, at);
  row.recommended = pick == other;
  if (pick == bf16 && !row.recommended && *Change(bf16->units_per_s, fp16->units_per_s) > 0)
    row.why += "; AMP bf16 needs no GradScaler";
  if (pick == bf16 && row.recommended && *row.change_percent < kTuneNoisePercent)
    row.why = "no measurable difference " + at + "; AMP bf16 needs no GradScaler";
  if (row.recommended)
    row.why += "; the knob table chose AMP " + first->precision + " at batch " +
               std::to_string(a.knob_batch) + " (eager, without the other knobs)";
  precision_row = row;
  return pick;
}

// The batch size row: the large-batch run (LargeBatchRun: the precision row before it, when the child timed
// both mixed precisions there) against the recommendation so far, which follows it when it is faster.
void AddLargeBatchRows(TuneModelAdvice& a, const std::vector<const TuneMeasurement*>& runs) {
  std::optional<TuneKnobRow> precision_row;
  const TuneMeasurement* large = LargeBatchRun(a, runs, precision_row);
  if (!large) return;
  // The child times the large batch with the settings chosen above; should they differ, the row says
  // so and the recommendation takes the settings of the figure it quotes.
  const bool same =
      large->precision == a.precision && SameSettingsButPrecision(*large, a.channels_last, a.benchmark,
                                                                  Extras{a.tf32, a.fused, a.sdpa, a.compile});
  TuneKnobRow row =
      Row("batch size", "batch " + std::to_string(a.batch),
          "batch " + std::to_string(large->batch) + (same ? "" : " with " + SettingsLabel(*large)),
          a.recommended_rate, large->units_per_s);
  Judge(row, a.unit, "");
  if (row.recommended) {
    a.batch = large->batch;
    a.precision = large->precision;
    a.channels_last = large->channels_last;
    a.benchmark = large->benchmark;
    AdoptExtrasAndFigures(a, *large);
    if (!same) row.why += " (measured with " + SettingsLabel(*large) + ")";
  }
  if (precision_row) {
    if (precision_row->recommended && !row.recommended) {
      precision_row->recommended = false;
      precision_row->why += "; but the large batch is not recommended, so the knob table's precision stands";
    }
    a.knobs.push_back(*precision_row);
  }
  a.knobs.push_back(row);
}

std::string GiB(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

// The run the activation checkpointing row compares with: the large batch without it and with the settings
// the checkpointed run had. With torch.compile chosen the child timed both eager (role "checkpointing").
const TuneMeasurement* CheckpointBaseline(const TuneChildOutput& out, const TuneMeasurement& with) {
  for (const auto& m : out.measurements)
    if (m.model == with.model && !m.checkpointing && (m.role == "large_batch" || m.role == "checkpointing") &&
        m.loss_finite && m.units_per_s > 0 && m.precision == with.precision &&
        SameSettingsButPrecision(m, with.channels_last, with.benchmark,
                                 Extras{with.tf32, with.fused, with.sdpa, with.compile}))
      return &m;
  return nullptr;
}

// The activation checkpointing row: the child's run with it, at a batch that fits only with it, against the
// large batch without it (or, when the child did not time it, its reason). Recommended when measurably faster
// than both that run and the recommendation so far, which then takes its settings, batch and figure.
void AddCheckpointRow(TuneModelAdvice& a, const TuneChildOutput& out) {
  const TuneMeasurement* with = nullptr;
  for (const auto& m : out.measurements)
    if (m.model == a.model && m.role == "checkpointing" && m.checkpointing && m.loss_finite &&
        m.units_per_s > 0)
      with = &m;
  if (!with) {
    std::optional<std::string> reason = KnobSkip(out, a.model, "checkpointing");
    if (!reason) return;  // an older child's output
    TuneKnobRow row =
        Row("activation checkpointing", "off", "torch.utils.checkpoint", std::nullopt, std::nullopt);
    row.why = "not measured: " + *reason;
    a.knobs.push_back(row);
    return;
  }
  const TuneMeasurement* without = CheckpointBaseline(out, *with);
  TuneKnobRow row =
      Row("activation checkpointing", without ? "off, batch " + std::to_string(without->batch) : "off",
          "torch.utils.checkpoint, batch " + std::to_string(with->batch),
          without ? std::optional<double>(without->units_per_s) : std::nullopt, with->units_per_s);
  Judge(row, a.unit, "");
  if (a.largest_batch)
    row.why +=
        "; with it batch " + std::to_string(with->batch) +
        " fits with the large batch's headroom (the largest without it: " + std::to_string(*a.largest_batch) +
        ")";
  if (with->peak_allocated_bytes && without && without->peak_allocated_bytes)
    row.why += "; peak memory " + GiB(*with->peak_allocated_bytes) + " with it, " +
               GiB(*without->peak_allocated_bytes) + " without";
  if (with->compile.empty() && !a.compile.empty())
    row.why += "; both eager: with torch.compile it would compile again";
  const std::optional<double> versus = Change(a.recommended_rate, with->units_per_s);
  if (row.recommended && versus && *versus < kTuneNoisePercent) {
    row.recommended = false;
    row.why += "; the recommendation (" + TuneSettingsLabel(a) + ") is as fast or faster";
  }
  if (row.recommended) {
    a.checkpointing = true;
    a.batch = with->batch;
    a.precision = with->precision;
    a.channels_last = with->channels_last;
    a.benchmark = with->benchmark;
    AdoptExtrasAndFigures(a, *with);
  }
  a.knobs.push_back(row);
}

// The knob runs of one model at its knob batch, by precision, channels_last and benchmark.
struct KnobRates {
  std::map<Key, const TuneMeasurement*> runs;
  std::optional<double> operator()(const std::string& p, bool cl, bool bench) const {
    auto it = runs.find({p, cl, bench});
    return it == runs.end() ? std::nullopt : std::optional<double>(it->second->units_per_s);
  }
  bool Has(const std::string& p, bool cl, bool bench) const { return runs.count({p, cl, bench}) > 0; }
};

// Precision: each mixed precision against fp32; the fastest recommended one wins, and bf16 when fp16
// is not measurably faster (bf16 needs no GradScaler and does not overflow).
void AddPrecisionRows(TuneModelAdvice& a, const KnobRates& rate, const std::string& at) {
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
}

// channels_last and cudnn.benchmark, for a model that has convolutions (its layout runs were measured).
void AddLayoutRows(TuneModelAdvice& a, const KnobRates& rate, bool rocm, const std::string& at) {
  if (!rate.Has(a.precision, true, false) && !rate.Has(a.precision, false, true)) return;
  TuneKnobRow cl = Row("channels_last", "NCHW", "channels_last (model and input)",
                       rate(a.precision, false, false), rate(a.precision, true, false));
  Judge(cl, a.unit, at);
  a.channels_last = cl.recommended;
  a.knobs.push_back(cl);
  // On ROCm the flag is MIOpen's find: on, an exhaustive search of every algorithm; off, the find mode
  // that MIOPEN_FIND_MODE sets (the notes say more).
  TuneKnobRow bench =
      Row(rocm ? "cudnn.benchmark (MIOpen find)" : "cudnn.benchmark",
          rocm ? "off (MIOPEN_FIND_MODE's find)" : "off", rocm ? "on (exhaustive find)" : "on",
          rate(a.precision, a.channels_last, false), rate(a.precision, a.channels_last, true));
  Judge(bench, a.unit, at);
  a.benchmark = bench.recommended;
  a.knobs.push_back(bench);
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
  KnobRates rate;
  std::vector<const TuneMeasurement*> large;
  for (const auto& m : out.measurements) {
    if (m.model != model || !m.loss_finite || !(m.units_per_s > 0)) continue;
    if (m.role == "large_batch") large.push_back(&m);
    if (m.role == "generic") a.generic_rate = m.units_per_s;
    if (m.role == "knob" && m.batch == a.knob_batch && SameExtras(m, Extras{}))
      rate.runs[{m.precision, m.channels_last, m.benchmark}] = &m;
  }
  const std::string at = "at batch " + std::to_string(a.knob_batch);
  AddPrecisionRows(a, rate, at);
  AddLayoutRows(a, rate, rocm, at);
  // The recommendation so far: the knob run with the chosen settings, its figure and its batch.
  a.recommended_rate = rate(a.precision, a.channels_last, a.benchmark);
  a.batch = a.knob_batch ? a.knob_batch : a.generic_batch;
  AddExtraRows(a, out, at);

  for (const auto& s : out.searches) {
    if (s.model != model) continue;
    a.largest_batch = s.largest;
    a.failed_batch = s.failed_at;
  }
  AddLargeBatchRows(a, large);
  AddCheckpointRow(a, out);
  return a;
}

const TuneBatchSearch* Search(const TuneChildOutput& out, const std::string& model) {
  for (const auto& s : out.searches)
    if (s.model == model) return &s;
  return nullptr;
}

std::optional<double> Fragmentation(const TuneMeasurement* m) {
  if (!m || !m->peak_allocated_bytes || !m->peak_reserved_bytes || *m->peak_allocated_bytes <= 0)
    return std::nullopt;
  return *m->peak_reserved_bytes / *m->peak_allocated_bytes;
}

std::string Ratio(std::optional<double> r) {
  if (!r) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", *r);
  return buf;
}

// The allocator knob: the first run's baseline (AllocatorBaseline: the large batch, else the fastest
// base-batch run at the search's precision) again, at the same batch and settings, with the variable set, and
// the batch search again from the largest batch that fitted. It helps when it is faster beyond the noise, or
// when a batch the default allocator could not fit now fits (by more than the noise), and it is not slower.
// The peaks of reserved over allocated memory (fragmentation) are the evidence of why.
void AddAllocatorRow(TuneModelAdvice& a, const TuneChildOutput& first, const TuneAllocatorRun& alloc) {
  const TuneMeasurement* before = AllocatorBaseline(first, a.model);
  const TuneMeasurement* after = nullptr;  // the same run again, with the variable set
  for (const auto& m : alloc.output.measurements)
    if (m.model == a.model && m.loss_finite && m.units_per_s > 0) after = &m;
  const TuneBatchSearch* search_before = Search(first, a.model);
  const TuneBatchSearch* search_after = Search(alloc.output, a.model);
  std::string not_applicable;
  for (const auto& s : alloc.output.skips)
    if (s.item == "allocator") not_applicable = s.reason;
  // A model the second run did not measure (its plan holds one model) gets no row, unless that run failed.
  if (!after && !search_after && not_applicable.empty() && alloc.status == "ok") return;
  TuneKnobRow row = Row(
      "expandable_segments", "default allocator",
      alloc.variable + "=" + alloc.value + (before ? " (batch " + std::to_string(before->batch) + ")" : ""),
      before ? std::optional<double>(before->units_per_s) : std::nullopt,
      after ? std::optional<double>(after->units_per_s) : std::nullopt);
  if (!not_applicable.empty()) {
    row.why = not_applicable;
    a.knobs.push_back(row);
    return;
  }
  Judge(row, a.unit, "");
  const bool slower = row.change_percent && *row.change_percent <= -kTuneNoisePercent;
  bool larger_batch = false;
  if (search_before && search_after && search_before->failed_at && search_before->largest > 0 &&
      search_after->largest >= *search_before->failed_at) {
    double gain = (static_cast<double>(search_after->largest) / search_before->largest - 1) * 100;
    larger_batch = gain >= kTuneNoisePercent;
  }
  if (larger_batch && !slower && !row.recommended) {
    row.recommended = true;
    row.why = "a larger batch fits";
  }
  if (slower) row.recommended = false;
  if (search_before && search_after)
    row.why += "; largest batch " + std::to_string(search_before->largest) + " -> " +
               std::to_string(search_after->largest);
  if (Fragmentation(before) || Fragmentation(after))
    row.why +=
        "; peak reserved/allocated " + Ratio(Fragmentation(before)) + " -> " + Ratio(Fragmentation(after));
  if (alloc.status != "ok" && !after) row.why = "the allocator run did not finish (" + alloc.status + ")";
  a.expandable_segments = row.recommended;
  a.knobs.push_back(row);
}

// A library knob's row: the first run's figure it repeats (LibraryBaseline) against the same run in the
// knob's child, with its variables set. It helps when it is faster beyond the noise; a run that did not
// finish says so.
void AddLibraryRow(TuneModelAdvice& a, const TuneChildOutput& first, const TuneLibraryRun& run,
                   std::vector<std::pair<std::string, std::string>>& env) {
  const TuneMeasurement* before = LibraryBaseline(first, a.model);
  const TuneMeasurement* after = nullptr;
  for (const auto& m : run.output.measurements)
    if (m.model == a.model && m.loss_finite && m.units_per_s > 0) after = &m;
  // The model its run timed: the knob's own, or the one its plan fell back to (LibraryKnobPlan).
  const std::string timed =
      run.output.measurements.empty() ? run.knob.model : run.output.measurements.front().model;
  if (timed != a.model) return;
  std::string not_applicable;
  for (const auto& s : run.output.skips)
    if (s.item == "library") not_applicable = s.reason;
  TuneKnobRow row =
      Row(run.knob.row, run.knob.without,
          LibraryKnobSetting(run.knob) + (before ? " (batch " + std::to_string(before->batch) + ")" : ""),
          before ? std::optional<double>(before->units_per_s) : std::nullopt,
          after ? std::optional<double>(after->units_per_s) : std::nullopt);
  if (!not_applicable.empty()) {
    row.why = not_applicable;
  } else if (!after) {
    row.why = run.status != "ok"
                  ? "the " + run.knob.row + " run did not finish (" + run.status + ")"
                  : "not measured: the run failed or its loss was not finite (see the problems)";
  } else {
    Judge(row, a.unit, "");
    for (const auto& [name, value] : run.knob.env)
      if (name == "PYTORCH_TUNABLEOP_FILENAME")
        row.why += "; the GEMMs it tuned are in " + value +
                   " (keep the file: with the variable set to it, the "
                   "next run skips the tuning)";
    if (row.recommended)
      for (const auto& kv : run.knob.env)
        if (std::find(env.begin(), env.end(), kv) == env.end()) env.push_back(kv);
  }
  a.knobs.push_back(row);
}

std::string Images(double rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, rate >= 100 ? "%.0f" : "%.1f", rate);
  return buf;
}

// The input pipeline against the GPU: the fewest DataLoader workers whose images/s reach what the GPU trains
// at the recommended settings (the pipeline then keeps it fed); when none do, the fastest, said as a limit.
// pin_memory is judged on its own, at the worker count the child measured it at.
void AddLoaderRows(TuneModelAdvice& a, const std::vector<TuneLoaderRate>& loader) {
  std::map<uint32_t, double> pageable, pinned;
  for (const auto& l : loader)
    if (l.images_per_s > 0) (l.pin_memory ? pinned : pageable)[l.workers] = l.images_per_s;
  if (pageable.empty() || !a.recommended_rate) return;
  const double need = *a.recommended_rate;
  std::optional<uint32_t> enough;
  uint32_t fastest = pageable.begin()->first;
  for (const auto& [workers, rate] : pageable) {
    if (!enough && rate >= need) enough = workers;
    if (rate > pageable[fastest]) fastest = workers;
  }
  const uint32_t pick = enough.value_or(fastest);
  auto label = [](uint32_t w) {
    return w == 0 ? std::string("0 workers (main process)") : std::to_string(w) + " workers";
  };
  TuneKnobRow row =
      Row("DataLoader workers", label(0), label(pick),
          pageable.count(0) ? std::optional<double>(pageable[0]) : std::nullopt, pageable[pick]);
  row.change_percent = Change(row.without_rate, row.with_rate);
  a.loader_keeps_up = enough.has_value();
  a.loader_workers = pick;
  row.recommended = pick > 0;
  if (enough) {
    row.why = label(pick) + " decode " + Images(pageable[pick]) + " images/s, training consumes " +
              Images(need) +
              (pick == 0 ? ": the main process keeps up" : ": the fewest that keep the GPU fed");
  } else {
    row.why = "the fastest, " + label(pick) + ", decode " + Images(pageable[pick]) + " images/s, below the " +
              Images(need) +
              " training consumes: the input pipeline will bound training (lighter augmentation, pre-decoded "
              "data, or "
              "decoding on the GPU)";
  }
  a.knobs.push_back(row);
  if (!pinned.empty()) {
    const uint32_t at = pinned.begin()->first;
    TuneKnobRow pin =
        Row("pin_memory", "off (" + label(at) + ")", "on",
            pageable.count(at) ? std::optional<double>(pageable[at]) : std::nullopt, pinned[at]);
    Judge(pin, "images/s", "");
    a.pin_memory = pin.recommended;
    a.knobs.push_back(pin);
  }
}

// The checkpoint calls, where the checkpointing row is recommended: the segments the child checkpointed.
void AddCheckpointLines(const TuneModelAdvice& a, std::vector<std::string>& lines) {
  if (!a.checkpointing) return;
  lines.push_back("from torch.utils.checkpoint import checkpoint, checkpoint_sequential");
  if (a.model == "resnet50")
    lines.push_back(
        "x = checkpoint(block, x, use_reentrant=False)  # in forward: each residual block of model.layer1 "
        "... "
        "model.layer4");
  else if (a.model == "transformer")
    lines.push_back("x = checkpoint(layer, x, use_reentrant=False)  # in forward: each encoder layer");
  else
    lines.push_back(
        "out = checkpoint_sequential(model, segments, inputs, use_reentrant=False)  # segments: about the "
        "square root of len(model)");
}

}  // namespace

std::string TuneSettingsLabel(const TuneModelAdvice& m) {
  std::string settings = m.precision == "fp32" ? "fp32" : "AMP " + m.precision;
  if (m.tf32) settings += ", TF32";
  if (m.channels_last) settings += ", channels_last";
  if (m.benchmark) settings += ", cudnn.benchmark";
  if (m.fused) settings += ", fused SGD";
  if (!m.sdpa.empty()) settings += ", " + m.sdpa + " attention";
  if (!m.compile.empty()) settings += ", " + CompileLabel(m.compile);
  if (m.checkpointing) settings += ", activation checkpointing";
  return settings + ", batch " + std::to_string(m.batch);
}

std::string TuneCostLabel(const TuneModelAdvice& m) {
  std::string out;
  if (m.compile_seconds) out = "compiling once: " + Seconds(*m.compile_seconds);
  if (m.peak_allocated_bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "peak memory: %.1f GiB", *m.peak_allocated_bytes / (1024.0 * 1024 * 1024));
    out += (out.empty() ? "" : "; ") + std::string(buf);
  }
  return out;
}

std::string FormatChange(double percent) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", percent);
  return buf;
}

namespace {

// The Python lines that carry one model's recommended settings (a script trains one model; the settings
// of two models may differ).
std::vector<std::string> PythonLinesOf(const TuneModelAdvice& a) {
  std::vector<std::string> lines;
  if (a.tf32) {
    lines.push_back(
        "torch.backends.cuda.matmul.fp32_precision = \"tf32\"  # TF32 matmuls; before torch 2.9: "
        "torch.set_float32_matmul_precision(\"high\")");
  }
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
  if (a.fused)
    lines.push_back(
        "optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, fused=True)  # Adam, AdamW: "
        "fused=True too");
  if (!a.sdpa.empty()) {
    const std::string kind = a.sdpa == "flash"       ? "FLASH_ATTENTION"
                             : a.sdpa == "efficient" ? "EFFICIENT_ATTENTION"
                                                     : "MATH";
    lines.push_back("from torch.nn.attention import sdpa_kernel, SDPBackend");
    lines.push_back("with sdpa_kernel(SDPBackend." + kind + "):  # forward pass, loss and backward");
  }
  if (!a.compile.empty()) {
    lines.push_back("model = torch.compile(model" +
                    (a.compile == "default" ? std::string() : ", mode=\"" + a.compile + "\"") + ")" +
                    (a.compile_seconds
                         ? "  # compiles in about " + Seconds(*a.compile_seconds) + " on the first steps"
                         : std::string()));
    if (a.compile == "reduce-overhead")
      lines.push_back("torch.compiler.cudagraph_mark_step_begin()  # at the start of each training step");
  }
  AddCheckpointLines(a, lines);
  if (a.loader_workers) {
    std::string args = "num_workers=" + std::to_string(*a.loader_workers);
    if (a.pin_memory) args += ", pin_memory=True";
    if (*a.loader_workers > 0) args += ", persistent_workers=True";
    lines.push_back("loader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True, " +
                    args + ")" + (a.loader_keeps_up ? "" : "  # still slower than the GPU: see the table"));
  }
  // The batch when it is not the guides' (the generic run's; without one, the knob runs').
  if (a.batch && a.batch != (a.generic_batch ? a.generic_batch : a.knob_batch))
    lines.push_back("batch_size = " + std::to_string(a.batch) + "  # largest that fitted: " +
                    (a.largest_batch ? std::to_string(*a.largest_batch) : std::string("n/a")));
  return lines;
}

}  // namespace

TuneAdvice BuildTuneAdvice(const TuneChildOutput& output, const TuneAllocatorRun* allocator,
                           const std::vector<TuneLibraryRun>& library) {
  TuneAdvice advice;
  const bool rocm = output.hello && output.hello->backend == "rocm";
  std::vector<std::string> models;
  for (const auto& m : output.measurements)
    if (std::find(models.begin(), models.end(), m.model) == models.end() && !m.model.empty())
      models.push_back(m.model);
  bool expandable = false;
  std::vector<std::pair<std::string, std::string>> library_env;
  for (const auto& model : models) {
    advice.models.push_back(AdviseModel(model, output, rocm));
    if (allocator) AddAllocatorRow(advice.models.back(), output, *allocator);
    for (const TuneLibraryRun& run : library) AddLibraryRow(advice.models.back(), output, run, library_env);
    if (model == "resnet50") AddLoaderRows(advice.models.back(), output.loader);
    expandable = expandable || advice.models.back().expandable_segments;
  }
  if (expandable) advice.env.emplace_back(allocator->variable, allocator->value);
  advice.env.insert(advice.env.end(), library_env.begin(), library_env.end());

  if (!advice.models.empty() && !(output.hello && output.hello->backend == "cpu")) {
    advice.notes.push_back(
        "Sharing the GPU: torch.cuda.set_per_process_memory_fraction(F) caps this process's caching "
        "allocator "
        "at F of the GPU's memory (beyond it, an out-of-memory error). It makes nothing faster and is not "
        "measured: set it when other processes train on the same GPU, and keep the batch within F of the "
        "largest "
        "that fitted here.");
  }
  if (rocm && std::any_of(advice.models.begin(), advice.models.end(), [](const TuneModelAdvice& m) {
        return std::any_of(m.knobs.begin(), m.knobs.end(),
                           [](const TuneKnobRow& k) { return k.knob == "cudnn.benchmark (MIOpen find)"; });
      })) {
    advice.notes.push_back(
        "MIOpen find mode: on ROCm, torch.backends.cudnn.benchmark = True makes PyTorch ask MIOpen for an "
        "exhaustive search of every convolution algorithm (the exhaustiveSearch argument of "
        "miopenFindConvolution*Algorithm, pytorch aten/src/ATen/native/miopen/Conv_miopen.cpp); off, the "
        "search is "
        "the one MIOPEN_FIND_MODE sets (NORMAL, FAST, HYBRID, or the default DYNAMIC_HYBRID, which answers "
        "from "
        "MIOpen's find database where it can: MIOpen's \"Using the find APIs and immediate mode\"). The "
        "first "
        "steps of a new shape are slow while it searches.");
  }

  // The lines to paste, per model.
  for (const auto& a : advice.models) {
    const std::vector<std::string> lines = PythonLinesOf(a);
    if (lines.empty()) continue;
    advice.python_lines.push_back("# " + a.model + ":");
    advice.python_lines.insert(advice.python_lines.end(), lines.begin(), lines.end());
  }
  return advice;
}

}  // namespace gpudoctor
