// A line chart as inline SVG for the HTML report: one or more measured sweeps over a logarithmic x axis
// (sizes in bytes get binary units), a linear y axis with its unit, a marker on every point, a dashed
// line at each known spec peak, a title and a legend. No script, no external resource: the SVG is
// static markup, every string in it escaped. LayoutChart computes the geometry so that tests can check
// it without parsing SVG; RenderSvgChart draws that layout.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/chart_scale.h"

namespace gpudoctor {

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y); non-finite values and x <= 0 are not drawn
  std::optional<double> peak;                     // the spec peak, in y units, when known
  bool failed = false;                            // its result check failed: the legend says so
};

struct ChartSpec {
  std::string title;
  std::string x_label;  // "array size"
  std::string x_unit;   // "bytes" gives binary-unit ticks; other units are appended to the label
  std::string y_unit;   // "GB/s"
  bool higher_is_better = true;
  std::vector<ChartSeries> series;
  int width = 1040;
  int height = 380;  // without the legend, which adds rows below
};

struct PlotBox {
  double left = 0, top = 0, right = 0, bottom = 0;
};

struct PlacedPoint {
  double x = 0, y = 0;    // the data
  double px = 0, py = 0;  // where it is drawn
};

struct PlacedPeak {
  double value = 0;
  double py = 0;
  std::string color;                // the series' colour; grey when several series share the value
  std::vector<std::string> series;  // the series with this peak
  std::string label;                // "spec peak 4800 GB/s", with the series named when peaks differ
};

struct PlacedSeries {
  std::string name;
  std::string color;
  int marker = 0;  // 0 circle, 1 square, 2 diamond, 3 triangle
  bool failed = false;
  std::vector<PlacedPoint> points;  // sorted by x
  size_t not_drawn = 0;             // points left out (not finite, or x <= 0 on the log axis)
};

struct LegendEntry {
  double x = 0, y = 0;  // top-left of the entry
  std::string text;
  std::string color;
  int marker = -1;  // -1: a dashed line (the peak entry)
  bool failed = false;
};

struct ChartLayout {
  int width = 0, height = 0;
  PlotBox plot;
  AxisScale x;  // log
  AxisScale y;  // linear
  std::vector<PlacedSeries> series;
  std::vector<PlacedPeak> peaks;  // one per distinct peak value
  std::vector<LegendEntry> legend;
  bool empty = true;  // nothing to draw: the chart says "no data"
  size_t not_drawn = 0;

  double XPixel(double value) const;
  double YPixel(double value) const;
};

ChartLayout LayoutChart(const ChartSpec& spec);
std::string RenderSvgChart(const ChartSpec& spec);

// The colour of the n-th series (a palette that colour-blind readers can tell apart), "#rrggbb".
std::string SeriesColor(size_t index);

}  // namespace gpudoctor
