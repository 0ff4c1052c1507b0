// Draws the report's line charts as SVG. Geometry first (LayoutChart: margins from the label widths,
// the axes from chart_scale, every point and peak placed in pixels, the legend flowed into rows under
// the plot), then markup (RenderSvgChart) with presentation attributes only, so the chart looks the
// same pasted anywhere, and a <title> on each point that a browser shows on hover without any script.
#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/html_escape.h"

namespace gpudoctor {
namespace {

// About the advance of a 12 px sans-serif character (DejaVu Sans, the widest of the usual fallbacks);
// bold text is wider still. Only used to place labels and flow the legend: too much is harmless.
constexpr double kCharWidth = 7.0;
constexpr double kBoldFactor = 1.15;
constexpr double kLegendRow = 20;
constexpr double kPeakLabelGap = 13;

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

double TextWidth(const std::string& s) {
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;  // count UTF-8 characters, not bytes
  return static_cast<double>(chars) * kCharWidth;
}

bool Drawable(double x, double y) {
  return std::isfinite(x) && std::isfinite(y) && x > 0;
}

std::string PeakLabel(double v, const std::string& unit) {
  return "spec peak " + FormatFigure(v) + (unit.empty() ? "" : " " + unit);
}

std::string XAxisTitle(const ChartSpec& s) {
  std::string t = s.x_label.empty() ? "x" : s.x_label;
  if (!s.x_unit.empty() && s.x_unit != "bytes") t += " (" + s.x_unit + ")";
  return t + ", log scale";
}

std::string YAxisTitle(const ChartSpec& s) {
  return (s.y_unit.empty() ? std::string("value") : s.y_unit) +
         (s.higher_is_better ? " (higher is better)" : " (lower is better)");
}

std::string PointTitle(const ChartSpec& spec, const std::string& series, const PlacedPoint& p) {
  std::string x = spec.x_unit == "bytes" ? FormatBinarySize(p.x)
                                         : FormatFigure(p.x) + (spec.x_unit.empty() ? "" : " " + spec.x_unit);
  return series + ": " + x + " \xE2\x86\x92 " + FormatFigure(p.y) +
         (spec.y_unit.empty() ? "" : " " + spec.y_unit);
}

std::string PointMarker(int shape, double x, double y, const std::string& color, const std::string& title,
                        const char* cls = "point") {
  const std::string klass = std::string(" class=\"") + cls + "\"";
  const std::string fill = " fill=\"" + color + "\" stroke=\"#ffffff\" stroke-width=\"1\"";
  std::string open;
  switch (shape) {
    case 1:
      open = "<rect" + klass + " x=\"" + Num(x - 3.5) + "\" y=\"" + Num(y - 3.5) +
             "\" width=\"7\" height=\"7\"" + fill + ">";
      return open + "<title>" + EscapeHtml(title) + "</title></rect>";
    case 2:
      open = "<polygon" + klass + " points=\"" + Num(x) + "," + Num(y - 4.5) + " " + Num(x + 4.5) + "," +
             Num(y) + " " + Num(x) + "," + Num(y + 4.5) + " " + Num(x - 4.5) + "," + Num(y) + "\"" + fill +
             ">";
      return open + "<title>" + EscapeHtml(title) + "</title></polygon>";
    case 3:
      open = "<polygon" + klass + " points=\"" + Num(x) + "," + Num(y - 4.5) + " " + Num(x + 4.5) + "," +
             Num(y + 3.5) + " " + Num(x - 4.5) + "," + Num(y + 3.5) + "\"" + fill + ">";
      return open + "<title>" + EscapeHtml(title) + "</title></polygon>";
    default:
      open = "<circle" + klass + " cx=\"" + Num(x) + "\" cy=\"" + Num(y) + "\" r=\"3.8\"" + fill + ">";
      return open + "<title>" + EscapeHtml(title) + "</title></circle>";
  }
}

std::string Text(double x, double y, const std::string& text, const std::string& attrs) {
  return "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\"" + attrs + ">" + EscapeHtml(text) + "</text>";
}

}  // namespace

std::string SeriesColor(size_t index) {
  // Okabe & Ito's palette for colour-blind readers, without its yellow (too pale on white).
  static const char* kPalette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                   "#e69f00", "#56b4e9", "#000000"};
  return kPalette[index % (sizeof kPalette / sizeof kPalette[0])];
}

double ChartLayout::XPixel(double value) const {
  const double lo = std::log(x.min), hi = std::log(x.max);
  double t = hi > lo ? (std::log(value) - lo) / (hi - lo) : 0.5;
  if (!std::isfinite(t)) t = 0;  // a range near the limits of double: never "nan" in the markup
  return plot.left + t * (plot.right - plot.left);
}

double ChartLayout::YPixel(double value) const {
  double t = y.max > y.min ? (value - y.min) / (y.max - y.min) : 0.5;
  if (!std::isfinite(t)) t = 0;
  return plot.bottom - t * (plot.bottom - plot.top);
}

namespace {

// Legend rows under the x axis title: one entry per series, then the peak line when there is one; the
// chart grows by the rows the legend takes, and the plot's bottom is set above them.
void PlaceLegend(const ChartSpec& spec, ChartLayout& layout) {
  std::vector<LegendEntry> entries;
  for (size_t i = 0; i < spec.series.size(); ++i) {
    LegendEntry e;
    e.text = spec.series[i].name + (spec.series[i].failed ? " \xE2\x80\x94 result check FAILED" : "");
    e.color = SeriesColor(i);
    e.marker = static_cast<int>(i % 4);
    e.failed = spec.series[i].failed;
    entries.push_back(e);
  }
  bool any_peak = false;
  for (const auto& s : spec.series) any_peak |= s.peak && std::isfinite(*s.peak);
  if (any_peak) entries.push_back({0, 0, "spec peak (from the knowledge base)", "#555555", -1, false});
  double cx = layout.plot.left, row = 0;
  for (auto& e : entries) {
    const double w = 30 + TextWidth(e.text) * (e.failed ? kBoldFactor : 1.0) + 20;
    if (cx > layout.plot.left && cx + w > layout.plot.right) cx = layout.plot.left, ++row;
    e.x = cx;
    e.y = row;
    cx += w;
  }
  const double legend_rows = entries.empty() ? 0 : row + 1;
  layout.height = std::max(spec.height, 200) + static_cast<int>(legend_rows * kLegendRow);
  layout.plot.bottom = layout.height - 58 - legend_rows * kLegendRow;
  for (auto& e : entries) e.y = layout.plot.bottom + 48 + e.y * kLegendRow;
  layout.legend = std::move(entries);
}

// Each series' drawable points in pixels, sorted by x, and the spec peaks (one line for series that share
// a peak, grey, with a label that names the series when the peaks differ).
void PlaceSeries(const ChartSpec& spec, ChartLayout& layout) {
  for (size_t i = 0; i < spec.series.size(); ++i) {
    const ChartSeries& s = spec.series[i];
    PlacedSeries placed;
    placed.name = s.name;
    placed.color = SeriesColor(i);
    placed.marker = static_cast<int>(i % 4);
    placed.failed = s.failed;
    for (const auto& [x, y] : s.points) {
      if (!Drawable(x, y)) {
        ++placed.not_drawn;
        continue;
      }
      placed.points.push_back({x, y, layout.XPixel(x), layout.YPixel(y)});
    }
    std::stable_sort(placed.points.begin(), placed.points.end(),
                     [](const PlacedPoint& a, const PlacedPoint& b) { return a.x < b.x; });
    layout.not_drawn += placed.not_drawn;
    if (!layout.empty && s.peak && std::isfinite(*s.peak)) {
      PlacedPeak* same = nullptr;
      for (auto& p : layout.peaks)
        if (std::fabs(p.value - *s.peak) <= 1e-9 * std::max(1.0, std::fabs(p.value))) same = &p;
      if (same)
        same->series.push_back(s.name);
      else
        layout.peaks.push_back({*s.peak, layout.YPixel(*s.peak), placed.color, {s.name}, ""});
    }
    layout.series.push_back(std::move(placed));
  }
  // A peak shared by several series belongs to none of them: grey. When the peaks differ, each label
  // names its series.
  for (auto& pk : layout.peaks) {
    if (pk.series.size() > 1) pk.color = "#555555";
    pk.label = PeakLabel(pk.value, spec.y_unit);
    if (layout.peaks.size() > 1) {
      std::string names;
      for (const auto& n : pk.series) names += (names.empty() ? "" : ", ") + n;
      pk.label += " (" + names + ")";
    }
  }
}

}  // namespace

ChartLayout LayoutChart(const ChartSpec& spec) {
  ChartLayout layout;
  layout.width = std::max(spec.width, 240);

  // The data's extent; the peaks belong to the y range so that their lines are on the chart.
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = 0, y_hi = -INFINITY;
  for (const auto& s : spec.series) {
    for (const auto& [x, y] : s.points) {
      if (!Drawable(x, y)) continue;
      x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
    }
  }
  layout.empty = !(x_lo <= x_hi);
  for (const auto& s : spec.series)
    if (s.peak && std::isfinite(*s.peak) && !layout.empty)
      y_lo = std::min(y_lo, *s.peak), y_hi = std::max(y_hi, *s.peak);
  if (layout.empty) {
    layout.x = LogAxis(1, 1024, spec.x_unit == "bytes");
    layout.y = LinearAxis(0, 1);
    layout.x.ticks.clear();
    layout.y.ticks.clear();
  } else {
    layout.x = LogAxis(x_lo, x_hi, spec.x_unit == "bytes");
    layout.y = LinearAxis(y_lo, y_hi);
  }

  double label_width = 0;
  for (const auto& t : layout.y.ticks) label_width = std::max(label_width, TextWidth(t.label));
  layout.plot.left = 34 + std::max(label_width, 3 * kCharWidth);
  layout.plot.right = layout.width - 22;
  layout.plot.top = 42;

  PlaceLegend(spec, layout);
  PlaceSeries(spec, layout);
  return layout;
}

namespace {

// The grid and the y axis with its title.
std::string SvgYAxis(const ChartSpec& spec, const ChartLayout& L) {
  std::string svg;
  const PlotBox& p = L.plot;
  svg += "<g class=\"axis y-axis\">\n";
  for (const auto& t : L.y.ticks) {
    const double y = L.YPixel(t.value);
    svg += "<line class=\"grid\" x1=\"" + Num(p.left) + "\" y1=\"" + Num(y) + "\" x2=\"" + Num(p.right) +
           "\" y2=\"" + Num(y) + "\" stroke=\"#e3e3e3\" stroke-width=\"1\"/>";
    svg += "<line class=\"tick\" x1=\"" + Num(p.left - 5) + "\" y1=\"" + Num(y) + "\" x2=\"" + Num(p.left) +
           "\" y2=\"" + Num(y) + "\" stroke=\"#333333\"/>";
    svg +=
        Text(p.left - 8, y + 4, t.label, " class=\"tick-label\" text-anchor=\"end\" fill=\"#333333\"") + "\n";
  }
  const double mid_y = (p.top + p.bottom) / 2;
  svg += "<text class=\"axis-title\" x=\"14\" y=\"" + Num(mid_y) + "\" transform=\"rotate(-90 14 " +
         Num(mid_y) + ")\" text-anchor=\"middle\" fill=\"#333333\">" + EscapeHtml(YAxisTitle(spec)) +
         "</text>\n";
  svg += "</g>\n";
  return svg;
}

// The x axis with its title.
std::string SvgXAxis(const ChartSpec& spec, const ChartLayout& L) {
  std::string svg;
  const PlotBox& p = L.plot;
  svg += "<g class=\"axis x-axis\">\n";
  for (const auto& t : L.x.ticks) {
    const double x = L.XPixel(t.value);
    svg += "<line class=\"grid\" x1=\"" + Num(x) + "\" y1=\"" + Num(p.top) + "\" x2=\"" + Num(x) +
           "\" y2=\"" + Num(p.bottom) + "\" stroke=\"#f0f0f0\" stroke-width=\"1\"/>";
    svg += "<line class=\"tick\" x1=\"" + Num(x) + "\" y1=\"" + Num(p.bottom) + "\" x2=\"" + Num(x) +
           "\" y2=\"" + Num(p.bottom + 5) + "\" stroke=\"#333333\"/>";
    svg += Text(x, p.bottom + 18, t.label, " class=\"tick-label\" text-anchor=\"middle\" fill=\"#333333\"") +
           "\n";
  }
  svg += Text((p.left + p.right) / 2, p.bottom + 36, XAxisTitle(spec),
              " class=\"axis-title\" text-anchor=\"middle\" fill=\"#333333\"") +
         "\n";
  svg += "</g>\n";
  return svg;
}

// Spec peaks: dashed, labelled at the right end; a label too close to the previous one moves down.
std::string SvgPeaks(const ChartLayout& L) {
  std::string svg;
  const PlotBox& p = L.plot;
  double last_label_y = -1e9;
  for (const auto& pk : L.peaks) {
    svg += "<line class=\"peak\" x1=\"" + Num(p.left) + "\" y1=\"" + Num(pk.py) + "\" x2=\"" + Num(p.right) +
           "\" y2=\"" + Num(pk.py) + "\" stroke=\"" + pk.color +
           "\" stroke-width=\"1.5\" stroke-dasharray=\"7 5\"/>";
    double ly = pk.py - p.top < 16 ? pk.py + 14 : pk.py - 5;  // below the line when it runs along the top
    if (std::fabs(ly - last_label_y) < kPeakLabelGap) ly = last_label_y + kPeakLabelGap;
    last_label_y = ly;
    svg += Text(p.right - 6, ly, pk.label,
                " class=\"peak-label\" text-anchor=\"end\" font-size=\"11\" fill=\"" + pk.color + "\"") +
           "\n";
  }
  return svg;
}

// Each series: its line and its markers, each marker titled with its point.
std::string SvgSeries(const ChartSpec& spec, const ChartLayout& L) {
  std::string svg;
  for (const auto& s : L.series) {
    svg += "<g class=\"series\" data-series=\"" + EscapeHtmlAttribute(s.name) + "\">\n";
    if (s.points.size() >= 2) {
      svg += "<polyline class=\"series-line\" fill=\"none\" stroke=\"" + s.color +
             "\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"";
      for (size_t i = 0; i < s.points.size(); ++i)
        svg += (i ? " " : "") + Num(s.points[i].px) + "," + Num(s.points[i].py);
      svg += "\"/>\n";
    }
    for (const auto& pt : s.points)
      svg += PointMarker(s.marker, pt.px, pt.py, s.color, PointTitle(spec, s.name, pt));
    svg += "\n</g>\n";
  }
  return svg;
}

// The legend under the x axis title.
std::string SvgLegend(const ChartLayout& L) {
  std::string svg;
  svg += "<g class=\"legend\">\n";
  for (const auto& e : L.legend) {
    const double y = e.y + 6;
    if (e.marker < 0) {
      svg += "<line x1=\"" + Num(e.x) + "\" y1=\"" + Num(y) + "\" x2=\"" + Num(e.x + 24) + "\" y2=\"" +
             Num(y) + "\" stroke=\"" + e.color + "\" stroke-width=\"1.5\" stroke-dasharray=\"7 5\"/>";
    } else {
      svg += "<line x1=\"" + Num(e.x) + "\" y1=\"" + Num(y) + "\" x2=\"" + Num(e.x + 24) + "\" y2=\"" +
             Num(y) + "\" stroke=\"" + e.color + "\" stroke-width=\"2\"/>";
      svg += PointMarker(e.marker, e.x + 12, y, e.color, e.text, "legend-marker");
    }
    svg += Text(e.x + 30, y + 4, e.text,
                e.failed ? " font-weight=\"700\" fill=\"#b00020\"" : std::string(" fill=\"#1a1a1a\"")) +
           "\n";
  }
  svg += "</g>\n";
  return svg;
}

}  // namespace

std::string RenderSvgChart(const ChartSpec& spec) {
  const ChartLayout L = LayoutChart(spec);
  const PlotBox& p = L.plot;
  const std::string font = " font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\"";
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" viewBox=\"0 0 " +
                    std::to_string(L.width) + " " + std::to_string(L.height) + "\" width=\"" +
                    std::to_string(L.width) + "\" height=\"" + std::to_string(L.height) + "\"" + font +
                    " font-size=\"12\">\n";
  svg += "<title>" + EscapeHtml(spec.title) + "</title>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(L.width) + "\" height=\"" +
         std::to_string(L.height) + "\" fill=\"#ffffff\"/>\n";
  svg += Text(p.left, 24, spec.title,
              " class=\"chart-title\" font-size=\"15\" font-weight=\"600\" fill=\"#1a1a1a\"") +
         "\n";

  svg += SvgYAxis(spec, L);
  svg += SvgXAxis(spec, L);
  const double mid_y = (p.top + p.bottom) / 2;
  svg += "<rect class=\"frame\" x=\"" + Num(p.left) + "\" y=\"" + Num(p.top) + "\" width=\"" +
         Num(p.right - p.left) + "\" height=\"" + Num(p.bottom - p.top) +
         "\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>\n";

  if (L.empty) {
    svg += Text((p.left + p.right) / 2, mid_y, "no data to draw",
                " class=\"no-data\" text-anchor=\"middle\" font-size=\"14\" fill=\"#777777\"") +
           "\n";
  }

  svg += SvgPeaks(L);
  svg += SvgSeries(spec, L);
  svg += SvgLegend(L);
  if (L.not_drawn > 0) {
    svg += Text(p.right, p.top - 6,
                std::to_string(L.not_drawn) + (L.not_drawn == 1 ? " point" : " points") +
                    " not drawn (not a finite number, or x \xE2\x89\xA4 0 on the log scale)",
                " class=\"not-drawn\" text-anchor=\"end\" font-size=\"11\" fill=\"#b00020\"") +
           "\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace gpudoctor
