// Axis ticks and number labels for the report's charts. The linear axis uses the usual "nice number"
// steps; the log axis puts its ticks on powers of two (sizes in bytes, small ranges) or of ten, thinned
// with a stride that keeps them on round exponents (every 2^10 is a KiB/MiB/GiB boundary).
#include "report/chart_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace gpudoctor {
namespace {

std::string Printf(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// "%.3g" without an exponent for the magnitudes a chart shows; trailing zeros dropped.
std::string Short(double v) {
  if (v == 0) return "0";
  const double a = std::fabs(v);
  if (a >= 1e6 || a < 1e-3) return Printf("%.3g", v);
  int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(a))));
  std::string s = Printf(("%." + std::to_string(decimals) + "f").c_str(), v);
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  return s;
}

double NiceStep(double raw) {
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  double nice = 10;
  if (norm <= 1)
    nice = 1;
  else if (norm <= 2)
    nice = 2;
  else if (norm <= 2.5)
    nice = 2.5;
  else if (norm <= 5)
    nice = 5;
  return nice * mag;
}

std::string LinearLabel(double v, double step) {
  if (std::fabs(v) < step * 1e-9) v = 0;  // no "-0" and no 1e-17 from accumulated steps
  const double top = std::max(std::fabs(v), step);
  if (top >= 1e7 || step < 1e-6) return Printf("%.3g", v);
  int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  if (std::fabs(step / std::pow(10.0, -decimals) - std::round(step / std::pow(10.0, -decimals))) > 1e-6)
    ++decimals;  // 2.5 * 10^k needs one digit more
  return Printf(("%." + std::to_string(decimals) + "f").c_str(), v);
}

// Exponents (of `base`) e with e % stride == 0 inside [log_lo, log_hi], the smallest stride from the
// list that gives at most `max_ticks`.
std::vector<int> StridedExponents(double log_lo, double log_hi, int max_ticks,
                                  std::initializer_list<int> strides) {
  const int first = static_cast<int>(std::ceil(log_lo - 1e-9));
  const int last = static_cast<int>(std::floor(log_hi + 1e-9));
  std::vector<int> out;
  for (int stride : strides) {
    out.clear();
    for (int e = first; e <= last; ++e)
      if (e % stride == 0) out.push_back(e);
    if (static_cast<int>(out.size()) <= max_ticks) break;
  }
  return out;
}

}  // namespace

AxisScale LinearAxis(double lo, double hi, int target_ticks) {
  AxisScale axis;
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.5;
    lo = lo == 0 ? 0 : lo - pad;
    hi = hi + pad;
  }
  const double span = hi - lo;
  if (!std::isfinite(span) || span <= 0) {
    // Too wide for steps (near the double range): just the two ends.
    axis.min = lo;
    axis.max = hi;
    axis.ticks = {{lo, Printf("%.3g", lo)}, {hi, Printf("%.3g", hi)}};
    return axis;
  }
  const double step = NiceStep(span / std::max(1, target_ticks));
  axis.min = std::floor(lo / step) * step;
  axis.max = std::ceil(hi / step) * step;
  if (!(axis.max > axis.min)) {
    // The step vanishes beside the magnitude (1e15 + 0.1): the two ends only.
    axis.min = lo;
    axis.max = hi;
    axis.ticks = {{lo, Printf("%.6g", lo)}, {hi, Printf("%.6g", hi)}};
    return axis;
  }
  const int count = static_cast<int>(std::llround((axis.max - axis.min) / step));
  for (int i = 0; i <= count && i <= 4 * target_ticks + 4; ++i) {
    const double v = axis.min + step * i;
    axis.ticks.push_back({v, LinearLabel(v, step)});
  }
  return axis;
}

AxisScale LogAxis(double lo, double hi, bool bytes, int max_ticks) {
  AxisScale axis;
  axis.log = true;
  if (!(lo > 0) || !std::isfinite(lo)) lo = 1;
  if (!(hi > 0) || !std::isfinite(hi)) hi = lo;
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) {
    lo /= 2;
    hi *= 2;
  }
  // 4% of the range on each side (at least a factor 1.05), so the end points are not on the frame.
  const double pad = std::max(1.05, std::pow(hi / lo, 0.04));
  axis.min = std::max(lo / pad, 1e-300);
  axis.max = std::min(hi * pad, 1e300);
  max_ticks = std::max(2, max_ticks);

  const bool decades = !bytes && hi / lo >= 1000;
  const double base = decades ? 10.0 : 2.0;
  const double log_lo = std::log(axis.min) / std::log(base), log_hi = std::log(axis.max) / std::log(base);
  std::vector<int> exps =
      decades ? StridedExponents(log_lo, log_hi, max_ticks, {1, 2, 3, 5, 10, 20, 50, 100})
              : StridedExponents(log_lo, log_hi, max_ticks, {1, 2, 4, 5, 10, 20, 50, 100, 200});
  // Powers of two read best written out ("1024", "8192"); decades with SI suffixes ("10k").
  auto label = [&](double v) {
    if (bytes) return FormatBinarySize(v);
    if (!decades && v >= 1 && v < 1e6) return Printf("%.0f", v);
    return FormatSiNumber(v);
  };
  for (int e : exps) {
    const double v = std::pow(base, e);
    axis.ticks.push_back({v, label(v)});
  }
  if (axis.ticks.size() < 2) {
    axis.ticks.clear();
    for (double v : {lo, hi}) axis.ticks.push_back({v, label(v)});
  }
  return axis;
}

std::string FormatBinarySize(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (!std::isfinite(bytes)) return "n/a";
  if (bytes < 1) return Short(bytes) + " B";
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  return Short(bytes) + " " + kUnits[u];
}

std::string FormatSiNumber(double value) {
  if (!std::isfinite(value)) return "n/a";
  static const struct {
    double scale;
    const char* suffix;
  } kSi[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& si : kSi)
    if (std::fabs(value) >= si.scale && std::fabs(value) < si.scale * 1e3)
      return Short(value / si.scale) + si.suffix;
  if (std::fabs(value) >= 1e15) return Printf("%.3g", value);
  return Short(value);
}

std::string FormatFigure(double value) {
  if (!std::isfinite(value)) return "n/a";
  const double a = std::fabs(value);
  if (a == 0) return "0";
  if (a >= 1e9 || a < 1e-4) return Printf("%.3g", value);
  if (a >= 1000) return Printf("%.0f", value);
  if (a >= 10) return Printf("%.1f", value);
  if (a >= 1) return Printf("%.2f", value);
  return Printf("%.3g", value);
}

}  // namespace gpudoctor
