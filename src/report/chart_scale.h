// The numbers around a chart: where the ticks of a linear or a logarithmic axis go and how their labels
// read ("0, 1000, 2000 GB/s"; "4 KiB, 1 MiB, 1 GiB"; "1, 10, 100, 1k"), and how a figure is printed in
// the report's tables. Pure functions, no drawing (svg_chart.h draws).
#pragma once

#include <string>
#include <vector>

namespace gpudoctor {

struct AxisTick {
  double value = 0;
  std::string label;
};

// An axis over [min, max] (for a log axis both are positive) with its ticks inside that range.
struct AxisScale {
  double min = 0;
  double max = 1;
  bool log = false;
  std::vector<AxisTick> ticks;
};

// Ticks at "nice" steps (1, 2, 2.5 or 5 times a power of ten), about `target_ticks` of them; the range
// grows to the outer ticks. [lo, hi] must be finite; lo == hi gets a range around the value.
AxisScale LinearAxis(double lo, double hi, int target_ticks = 5);

// A logarithmic axis over [lo, hi] (positive, finite), padded a little on both sides. `bytes`: ticks
// at powers of two labelled in binary units ("64 KiB"). Otherwise powers of ten ("1k") when the range
// spans three decades or more, else powers of two. At most `max_ticks` ticks, and at least two: a range
// narrower than one step gets ticks at its ends.
AxisScale LogAxis(double lo, double hi, bool bytes, int max_ticks = 8);

// 1048576 -> "1 MiB", 1536 -> "1.5 KiB", 512 -> "512 B".
std::string FormatBinarySize(double bytes);
// 1000 -> "1k", 2500000 -> "2.5M", 64 -> "64", 0.5 -> "0.5".
std::string FormatSiNumber(double value);
// A figure for a table: about four significant digits without exponent for ordinary magnitudes
// (4123.4 -> "4123", 85.43 -> "85.4", 0.00123 -> "0.00123"); "n/a" when not finite.
std::string FormatFigure(double value);

}  // namespace gpudoctor
