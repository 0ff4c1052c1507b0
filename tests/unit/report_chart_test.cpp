// The report's charts (report/chart_scale.h, report/svg_chart.h): tick placement and labels on linear and
// log axes, the pixel geometry of points and peak lines, and the edge cases a benchmark file can hold:
// no point, one point, zeros, negative values, NaN and infinity, x <= 0 on the log axis.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "report/chart_scale.h"
#include "report/svg_chart.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Count;

// A MiB and a GiB of bytes as the chart takes its x values (doubles).
constexpr double kChartMiB = 1 << 20;
constexpr double kChartGiB = 1 << 30;

std::vector<std::string> Labels(const AxisScale& a) {
  std::vector<std::string> out;
  for (const auto& t : a.ticks) out.push_back(t.label);
  return out;
}

ChartSpec Memory(std::vector<std::pair<double, double>> points, std::optional<double> peak = 4800) {
  ChartSpec spec;
  spec.title = "Device memory (GB/s)";
  spec.x_label = "array size";
  spec.x_unit = "bytes";
  spec.y_unit = "GB/s";
  spec.series.push_back({"triad", std::move(points), peak, false});
  return spec;
}

TEST(ReportChartScale, LinearTicksAreNiceSteps) {
  AxisScale a = LinearAxis(0, 4800);
  EXPECT_EQ(a.min, 0);
  EXPECT_EQ(a.max, 5000);
  EXPECT_EQ(Labels(a), (std::vector<std::string>{"0", "1000", "2000", "3000", "4000", "5000"}));
  EXPECT_EQ(Labels(LinearAxis(0, 0.37)), (std::vector<std::string>{"0.0", "0.1", "0.2", "0.3", "0.4"}));
  EXPECT_EQ(Labels(LinearAxis(0, 11)),
            (std::vector<std::string>{"0.0", "2.5", "5.0", "7.5", "10.0", "12.5"}));
}

TEST(ReportChartScale, LinearAxisCoversNegativeValuesAndZero) {
  AxisScale a = LinearAxis(-3, 5);
  EXPECT_LE(a.min, -3);
  EXPECT_GE(a.max, 5);
  EXPECT_NE(std::find(Labels(a).begin(), Labels(a).end(), "0"), Labels(a).end());
  EXPECT_EQ(a.ticks.front().label, "-4");
  // A single value, zero or not, still gets a range with ticks around it.
  AxisScale zero = LinearAxis(0, 0);
  EXPECT_EQ(zero.min, 0);
  EXPECT_GT(zero.max, 0);
  AxisScale one = LinearAxis(42, 42);
  EXPECT_LT(one.min, 42);
  EXPECT_GT(one.max, 42);
  EXPECT_GE(one.ticks.size(), 2u);
}

TEST(ReportChartScale, LinearAxisSurvivesNonFiniteAndHugeInput) {
  AxisScale nan = LinearAxis(std::nan(""), 5);
  EXPECT_EQ(nan.min, 0);
  EXPECT_EQ(nan.max, 1);
  AxisScale huge = LinearAxis(-1e308, 1e308);
  EXPECT_EQ(huge.ticks.size(), 2u);
  AxisScale tiny_step = LinearAxis(1e15, 1e15 + 0.1);
  EXPECT_GT(tiny_step.max, tiny_step.min);
  EXPECT_LE(tiny_step.ticks.size(), 24u);
}

TEST(ReportChartScale, LogAxisForBytesUsesBinaryUnits) {
  AxisScale a = LogAxis(kChartMiB, kChartGiB, /*bytes=*/true);
  EXPECT_TRUE(a.log);
  EXPECT_LT(a.min, kChartMiB);
  EXPECT_GT(a.max, kChartGiB);
  EXPECT_EQ(Labels(a), (std::vector<std::string>{"1 MiB", "4 MiB", "16 MiB", "64 MiB", "256 MiB", "1 GiB"}));
  AxisScale wide = LogAxis(4096, 4 * kChartGiB, true);
  EXPECT_LE(wide.ticks.size(), 8u);
  EXPECT_GE(wide.ticks.size(), 3u);
  for (const auto& t : wide.ticks) {
    EXPECT_GE(t.value, wide.min);
    EXPECT_LE(t.value, wide.max);
  }
  EXPECT_EQ(Labels(wide),
            (std::vector<std::string>{"4 KiB", "64 KiB", "1 MiB", "16 MiB", "256 MiB", "4 GiB"}));
}

TEST(ReportChartScale, LogAxisForCountsUsesDecadesOrPowersOfTwo) {
  EXPECT_EQ(Labels(LogAxis(1, 1e6, false)),
            (std::vector<std::string>{"1", "10", "100", "1k", "10k", "100k", "1M"}));
  EXPECT_EQ(Labels(LogAxis(512, 16384, false)),
            (std::vector<std::string>{"512", "1024", "2048", "4096", "8192", "16384"}));
  // Narrower than one step: the two ends are the ticks.
  AxisScale narrow = LogAxis(1000, 1100, false);
  EXPECT_EQ(Labels(narrow), (std::vector<std::string>{"1000", "1100"}));
  // One value: a range around it.
  AxisScale one = LogAxis(kChartMiB, kChartMiB, true);
  EXPECT_LT(one.min, kChartMiB);
  EXPECT_GT(one.max, kChartMiB);
}

TEST(ReportChartScale, NumberFormats) {
  EXPECT_EQ(FormatBinarySize(1536), "1.5 KiB");
  EXPECT_EQ(FormatBinarySize(512), "512 B");
  EXPECT_EQ(FormatBinarySize(kChartGiB), "1 GiB");
  EXPECT_EQ(FormatSiNumber(2500000), "2.5M");
  EXPECT_EQ(FormatSiNumber(0.5), "0.5");
  EXPECT_EQ(FormatFigure(4123.4), "4123");
  EXPECT_EQ(FormatFigure(85.43), "85.4");
  EXPECT_EQ(FormatFigure(2.345), "2.35");
  EXPECT_EQ(FormatFigure(0.00123), "0.00123");
  EXPECT_EQ(FormatFigure(0), "0");
  EXPECT_EQ(FormatFigure(-12.5), "-12.5");
  EXPECT_EQ(FormatFigure(std::nan("")), "n/a");
}

TEST(ReportChart, LogScaleSpacesEqualRatiosEqually) {
  ChartLayout l = LayoutChart(
      Memory({{kChartMiB, 1000}, {4 * kChartMiB, 2000}, {16 * kChartMiB, 3000}, {64 * kChartMiB, 4000}}));
  ASSERT_EQ(l.series.size(), 1u);
  const auto& p = l.series[0].points;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_NEAR(p[1].px - p[0].px, p[2].px - p[1].px, 1e-6);
  EXPECT_NEAR(p[2].px - p[1].px, p[3].px - p[2].px, 1e-6);
  for (const auto& pt : p) {
    EXPECT_GT(pt.px, l.plot.left);
    EXPECT_LT(pt.px, l.plot.right);
    EXPECT_GE(pt.py, l.plot.top);
    EXPECT_LE(pt.py, l.plot.bottom);
  }
  // Higher values are drawn higher (smaller y), and 0 GB/s sits on the bottom of the plot.
  EXPECT_LT(p[3].py, p[0].py);
  EXPECT_DOUBLE_EQ(l.YPixel(0), l.plot.bottom);
  EXPECT_DOUBLE_EQ(l.YPixel(l.y.max), l.plot.top);
}

TEST(ReportChart, AxesHaveTicksLabelsAndUnits) {
  const std::string svg = RenderSvgChart(Memory({{kChartMiB, 1000}, {kChartGiB, 4200}}));
  EXPECT_EQ(Count(svg, "<svg"), 1u);
  EXPECT_EQ(Count(svg, "</svg>"), 1u);
  EXPECT_EQ(Count(svg, "<text"), Count(svg, "</text>"));
  EXPECT_NE(svg.find(">1 MiB</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1 GiB</text>"), std::string::npos);
  EXPECT_NE(svg.find(">5000</text>"), std::string::npos);
  EXPECT_NE(svg.find("GB/s (higher is better)"), std::string::npos);
  EXPECT_NE(svg.find("array size, log scale"), std::string::npos);
  EXPECT_NE(svg.find("<title>Device memory (GB/s)</title>"), std::string::npos);
  EXPECT_GE(Count(svg, "class=\"tick\""), 6u);
  EXPECT_EQ(Count(svg, "<polyline class=\"series-line\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"point\""), 2u);
}

TEST(ReportChart, PeakIsADashedLineInsideTheRange) {
  ChartLayout l = LayoutChart(Memory({{kChartMiB, 1000}, {kChartGiB, 4200}}, 4800));
  ASSERT_EQ(l.peaks.size(), 1u);
  EXPECT_GE(l.y.max, 4800);
  EXPECT_DOUBLE_EQ(l.peaks[0].py, l.YPixel(4800));
  EXPECT_GT(l.peaks[0].py, l.plot.top);
  EXPECT_LT(l.peaks[0].py, l.series[0].points[1].py);  // the peak is above the best point
  EXPECT_EQ(l.peaks[0].label, "spec peak 4800 GB/s");
  const std::string svg = RenderSvgChart(Memory({{kChartMiB, 1000}, {kChartGiB, 4200}}, 4800));
  EXPECT_EQ(Count(svg, "class=\"peak\""), 1u);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  // Without a known peak there is no line and no legend entry for it.
  const std::string none = RenderSvgChart(Memory({{kChartMiB, 1000}, {kChartGiB, 4200}}, std::nullopt));
  EXPECT_EQ(Count(none, "class=\"peak\""), 0u);
  EXPECT_EQ(none.find("spec peak"), std::string::npos);
}

TEST(ReportChart, SeveralSeriesGetColoursALegendAndOnePeakPerValue) {
  ChartSpec spec = Memory({{kChartMiB, 1000}, {kChartGiB, 4200}});
  spec.series.push_back({"copy", {{kChartMiB, 900}, {kChartGiB, 4100}}, 4800, false});
  spec.series.push_back({"dot", {{kChartMiB, 800}, {kChartGiB, 4000}}, 4800, true});
  ChartLayout l = LayoutChart(spec);
  ASSERT_EQ(l.series.size(), 3u);
  EXPECT_NE(l.series[0].color, l.series[1].color);
  EXPECT_NE(l.series[1].color, l.series[2].color);
  EXPECT_EQ(l.peaks.size(), 1u);   // one value, one line
  EXPECT_EQ(l.legend.size(), 4u);  // three series and the peak
  EXPECT_TRUE(l.legend[2].failed);
  EXPECT_EQ(l.peaks[0].color, "#555555");  // shared by all three: no series' colour
  EXPECT_EQ(l.peaks[0].label, "spec peak 4800 GB/s");
  spec.series[1].peak = 2000;
  ChartLayout two = LayoutChart(spec);
  ASSERT_EQ(two.peaks.size(), 2u);
  EXPECT_EQ(two.peaks[0].label, "spec peak 4800 GB/s (triad, dot)");
  EXPECT_EQ(two.peaks[1].label, "spec peak 2000 GB/s (copy)");
  EXPECT_EQ(two.peaks[1].color, two.series[1].color);
  const std::string svg = RenderSvgChart(spec);
  EXPECT_EQ(Count(svg, "<polyline class=\"series-line\""), 3u);
  EXPECT_NE(svg.find("dot \xE2\x80\x94 result check FAILED"), std::string::npos);
}

TEST(ReportChart, EmptySeriesDrawsAnEmptyFrameWithANote) {
  ChartSpec spec = Memory({});
  ChartLayout l = LayoutChart(spec);
  EXPECT_TRUE(l.empty);
  EXPECT_TRUE(l.peaks.empty());
  const std::string svg = RenderSvgChart(spec);
  EXPECT_NE(svg.find("no data to draw"), std::string::npos);
  EXPECT_EQ(svg.find("<polyline"), std::string::npos);
  ChartSpec nothing;
  EXPECT_NE(RenderSvgChart(nothing).find("no data to draw"), std::string::npos);
}

TEST(ReportChart, OnePointIsAMarkerInTheMiddleOfARange) {
  ChartLayout l = LayoutChart(Memory({{64 * kChartMiB, 3000}}, std::nullopt));
  ASSERT_EQ(l.series[0].points.size(), 1u);
  EXPECT_LT(l.x.min, 64 * kChartMiB);
  EXPECT_GT(l.x.max, 64 * kChartMiB);
  EXPECT_NEAR(l.series[0].points[0].px, (l.plot.left + l.plot.right) / 2, 1.0);
  const std::string svg = RenderSvgChart(Memory({{64 * kChartMiB, 3000}}, std::nullopt));
  EXPECT_EQ(Count(svg, "class=\"point\""), 1u);
  EXPECT_EQ(svg.find("<polyline"), std::string::npos);
}

TEST(ReportChart, ZeroAndNegativeValuesStayOnTheChart) {
  ChartLayout l =
      LayoutChart(Memory({{kChartMiB, 0}, {2 * kChartMiB, -5}, {4 * kChartMiB, 10}}, std::nullopt));
  EXPECT_LE(l.y.min, -5);
  ASSERT_EQ(l.series[0].points.size(), 3u);
  for (const auto& p : l.series[0].points) {
    EXPECT_GE(p.py, l.plot.top);
    EXPECT_LE(p.py, l.plot.bottom);
  }
  EXPECT_GT(l.series[0].points[1].py, l.series[0].points[0].py);  // -5 below 0
  // All zeros: a range above zero, the points on its bottom.
  ChartLayout zeros = LayoutChart(Memory({{kChartMiB, 0}, {kChartGiB, 0}}, std::nullopt));
  EXPECT_EQ(zeros.y.min, 0);
  EXPECT_GT(zeros.y.max, 0);
  EXPECT_DOUBLE_EQ(zeros.series[0].points[0].py, zeros.plot.bottom);
}

TEST(ReportChart, NonFiniteValuesAndNonPositiveXAreLeftOutAndCounted) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  ChartSpec spec = Memory({{kChartMiB, 1000},
                           {2 * kChartMiB, nan},
                           {4 * kChartMiB, inf},
                           {0, 5},
                           {-1, 5},
                           {nan, 5},
                           {kChartGiB, 4000}},
                          nan);
  ChartLayout l = LayoutChart(spec);
  EXPECT_EQ(l.series[0].points.size(), 2u);
  EXPECT_EQ(l.series[0].not_drawn, 5u);
  EXPECT_TRUE(l.peaks.empty());  // a NaN peak is no peak
  EXPECT_TRUE(std::isfinite(l.y.max));
  const std::string svg = RenderSvgChart(spec);
  EXPECT_NE(svg.find("5 points not drawn"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  // Only non-finite points: the empty chart.
  EXPECT_TRUE(LayoutChart(Memory({{kChartMiB, nan}}, 4800)).empty);
  // Values at the ends of the double range: drawn somewhere, never "nan" in the markup.
  const std::string extreme = RenderSvgChart(Memory({{kChartMiB, -1e308}, {1e300, 1e308}}, 1e308));
  EXPECT_EQ(extreme.find("nan"), std::string::npos);
  EXPECT_EQ(extreme.find("inf"), std::string::npos);
}

TEST(ReportChart, PointsAreSortedByX) {
  ChartLayout l = LayoutChart(Memory({{kChartGiB, 4000}, {kChartMiB, 1000}, {16 * kChartMiB, 3000}}));
  const auto& p = l.series[0].points;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_LT(p[0].px, p[1].px);
  EXPECT_LT(p[1].px, p[2].px);
}

TEST(ReportChart, TextInTheChartIsEscaped) {
  ChartSpec spec = Memory({{kChartMiB, 1000}, {kChartGiB, 2000}});
  spec.title = "<script>alert(1)</script>";
  spec.series[0].name = "A&B \"quoted\" <b>";
  spec.y_unit = "GB/s<img>";
  const std::string svg = RenderSvgChart(spec);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"A&amp;B &quot;quoted&quot; &lt;b&gt;\""), std::string::npos);
}

TEST(ReportChart, LowerIsBetterIsSaidOnTheAxis) {
  ChartSpec spec = Memory({{1, 5}, {1024, 2.3}}, std::nullopt);
  spec.x_unit = "launches";
  spec.x_label = "kernels launched back to back";
  spec.y_unit = "\xC2\xB5s";
  spec.higher_is_better = false;
  const std::string svg = RenderSvgChart(spec);
  EXPECT_NE(svg.find("\xC2\xB5s (lower is better)"), std::string::npos);
  EXPECT_NE(svg.find("kernels launched back to back (launches), log scale"), std::string::npos);
  EXPECT_NE(svg.find(">1k</text>"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
