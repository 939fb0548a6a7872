#include "iomark/report/svg_chart.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "report/count_of.hpp"

#include <string>
#include <vector>

namespace iomark::report {
namespace {

using test_support::count_of;

Chart qd_chart(std::vector<ChartCurve> curves) {
  return {"spec-iops", "IOPS", "outstanding I/Os", "I/Os per second", XScale::log2, {}, std::move(curves)};
}

TEST(NiceTicks, StepsOfOneTwoOrFiveCoverTheRange) {
  EXPECT_EQ(nice_ticks(0, 19600, 6), (std::vector<double>{0, 5000, 10000, 15000, 20000}));
  const auto fractions = nice_ticks(0, 0.9, 6);
  ASSERT_EQ(fractions.size(), 6U);
  for (std::size_t i = 0; i < fractions.size(); ++i) EXPECT_NEAR(fractions[i], 0.2 * static_cast<double>(i), 1e-12);
  const auto ticks = nice_ticks(3.2, 47, 6);
  EXPECT_LE(ticks.front(), 3.2);
  EXPECT_GE(ticks.back(), 47);
  EXPECT_LE(ticks.size(), 7U);
}

TEST(NiceTicks, AnEmptyRangeIsWidened) {
  const auto ticks = nice_ticks(5, 5, 6);
  ASSERT_GE(ticks.size(), 2U);
  EXPECT_LT(ticks.front(), 5);
  EXPECT_GT(ticks.back(), 5);
}

// Whatever nice_ticks is given, it returns at least two ordered, finite ticks, at most
// max_count + 3, covering the finite part of the range; it once returned none for -inf (the
// chart then read front() of an empty list) and looped for ever on a constant -1e17 and on a
// range of a few units at 1e17, where adding 1 to a step number no longer changes it.
TEST(NiceTicks, AnyInputGivesABoundedNonEmptyCover) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double max = std::numeric_limits<double>::max();
  const std::pair<double, double> ranges[] = {
      {-inf, 0},    {0, inf},     {-inf, inf}, {nan, nan},     {nan, 5},        {-1e17, -1e17}, {1e17, 1e17},
      {-max, max},  {max, max},   {-max, -max}, {0, max},      {-1e300, 1e300}, {10, 1},        {1e-320, 1e-320},
      {-1e15, 1e15}, {0.1, 0.1000000001}, {4.9e-324, 1e-323}, {1e17, 1e17 + 32}, {-1e17 - 32, -1e17}};
  for (const auto& [low, high] : ranges) {
    for (const std::size_t count : {0UL, 1UL, 2UL, 6UL, 10UL}) {
      const auto ticks = nice_ticks(low, high, count);
      ASSERT_GE(ticks.size(), 2U) << low << " .. " << high;
      EXPECT_LE(ticks.size(), std::max<std::size_t>(count, 2) + 3) << low << " .. " << high;
      EXPECT_TRUE(std::is_sorted(ticks.begin(), ticks.end())) << low << " .. " << high;
      for (const double tick : ticks) EXPECT_TRUE(std::isfinite(tick)) << low << " .. " << high;
      if (std::isfinite(low) && std::isfinite(high)) {
        EXPECT_LE(ticks.front(), std::min(low, high)) << low << " .. " << high;
        EXPECT_GE(ticks.back(), std::max(low, high)) << low << " .. " << high;
      }
    }
  }
}

TEST(LogTicks, AnyInputGivesAFiniteCover) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [low, high] : {std::pair{1.0, inf}, {nan, nan}, {1e-320, 1e308}, {inf, inf}, {1.0, 1e300},
                                  {-inf, 0.0}, {0.25, 0.25}, {-1e17, -1e17}}) {
    const auto two = log2_ticks(low, high, 12);
    ASSERT_GE(two.size(), 2U);
    EXPECT_LE(two.size(), 13U);
    for (const double tick : two) EXPECT_TRUE(std::isfinite(tick));
    const auto ten = log10_ticks(low, high);
    ASSERT_GE(ten.size(), 2U);
    for (const double tick : ten) EXPECT_TRUE(std::isfinite(tick) && tick > 0);
  }
}

TEST(Log2Ticks, PowersOfTwoCoveringTheRange) {
  EXPECT_EQ(log2_ticks(1, 128, 12), (std::vector<double>{1, 2, 4, 8, 16, 32, 64, 128}));
  EXPECT_EQ(log2_ticks(3, 100, 12), (std::vector<double>{2, 4, 8, 16, 32, 64, 128}));
  EXPECT_EQ(log2_ticks(4, 4, 12), (std::vector<double>{2, 4, 8}));
}

TEST(Log2Ticks, ThinnedOutWhenTooMany) {
  const auto ticks = log2_ticks(1, 1 << 20, 12);
  EXPECT_LE(ticks.size(), 12U);
  EXPECT_EQ(ticks.front(), 1);
  EXPECT_GE(ticks.back(), 1 << 20);
}

TEST(Log10Ticks, DecadesCoveringTheRange) {
  EXPECT_EQ(log10_ticks(0.05, 27), (std::vector<double>{0.01, 0.1, 1, 10, 100}));
  EXPECT_EQ(log10_ticks(1, 1), (std::vector<double>{1, 10}));
}

TEST(ChartFrame, Log10YAxisSpacesDecadesEvenly) {
  Chart chart = qd_chart({{"p", {{1, 0.05}, {2, 0.5}, {4, 27}, {8, 0}}}});
  chart.y_scale = YScale::log10;
  const ChartFrame frame(chart);
  EXPECT_NEAR(frame.y_px(0.1) - frame.y_px(1), frame.y_px(1) - frame.y_px(10), 1e-9);
  EXPECT_DOUBLE_EQ(frame.y_px(0.01), frame.plot().top + frame.plot().height);
  EXPECT_DOUBLE_EQ(frame.y_px(100), frame.plot().top);
  // A zero cannot be placed on a log axis: it sits on the bottom edge.
  EXPECT_DOUBLE_EQ(frame.y_px(0), frame.plot().top + frame.plot().height);
}

TEST(FormatTick, ShortLabels) {
  EXPECT_EQ(format_tick(0), "0");
  EXPECT_EQ(format_tick(0.25), "0.25");
  EXPECT_EQ(format_tick(1500), "1500");
  EXPECT_EQ(format_tick(20000), "20k");
  EXPECT_EQ(format_tick(1500000), "1.5M");
}

TEST(EscapeXml, EveryMarkupCharacter) {
  EXPECT_EQ(escape_xml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(escape_xml("plain µs"), "plain µs");
}

TEST(ChartFrame, Log2AxisSpacesDoublingsEvenlyAndSpansThePlot) {
  const ChartFrame frame(qd_chart({{"ALL", {{1, 100}, {2, 180}, {4, 300}, {8, 390}}}}));
  const Box& plot = frame.plot();
  EXPECT_DOUBLE_EQ(frame.x_px(1), plot.left);
  EXPECT_DOUBLE_EQ(frame.x_px(8), plot.left + plot.width);
  EXPECT_NEAR(frame.x_px(2) - frame.x_px(1), frame.x_px(4) - frame.x_px(2), 1e-9);
  EXPECT_NEAR(frame.x_px(4) - frame.x_px(2), frame.x_px(8) - frame.x_px(4), 1e-9);
  // y starts at 0 and grows upwards; the top tick is at the top of the plot.
  EXPECT_DOUBLE_EQ(frame.y_ticks().front(), 0);
  EXPECT_DOUBLE_EQ(frame.y_px(0), plot.top + plot.height);
  EXPECT_DOUBLE_EQ(frame.y_px(frame.y_ticks().back()), plot.top);
  EXPECT_GE(frame.y_ticks().back(), 390);
  EXPECT_LT(frame.y_px(390), frame.y_px(100));
}

TEST(ChartFrame, CategoriesSitInTheMiddleOfEqualSlots) {
  Chart chart{"c", "t", "x", "y", XScale::categories, {"p50", "p90", "p99"}, {{"run", {{0, 1}, {1, 2}, {2, 3}}}}};
  const ChartFrame frame(chart);
  EXPECT_EQ(frame.x_ticks().size(), 3U);
  const double slot = frame.plot().width / 3;
  EXPECT_DOUBLE_EQ(frame.x_px(0), frame.plot().left + slot / 2);
  EXPECT_DOUBLE_EQ(frame.x_px(2), frame.plot().left + frame.plot().width - slot / 2);
}

TEST(ChartFrame, TheLegendGrowsTheChartWithTheCurves) {
  std::vector<ChartCurve> many;
  for (int c = 0; c < 12; ++c) many.push_back({"curve " + std::to_string(c), {{1, 1}}});
  EXPECT_GT(ChartFrame(qd_chart(many)).height(), ChartFrame(qd_chart({{"one", {{1, 1}}}})).height());
}

TEST(RenderSvgChart, OnePolylineAndMarkerPerPoint) {
  const auto svg = render_svg_chart(qd_chart({{"ALL", {{1, 100}, {2, 180}, {4, 300}}}, {"hostA", {{1, 50}, {2, 90}}}}));
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0U);
  EXPECT_EQ(count_of(svg, "<polyline class=\"curve\""), 2U);
  EXPECT_EQ(count_of(svg, "data-points=\"3\""), 1U);
  EXPECT_EQ(count_of(svg, "data-points=\"2\""), 1U);
  EXPECT_EQ(count_of(svg, "<circle class=\"marker\""), 5U);
  EXPECT_EQ(count_of(svg, "class=\"legend-entry\""), 2U);
  EXPECT_NE(svg.find(">outstanding I/Os</text>"), std::string::npos);
  EXPECT_NE(svg.find(">I/Os per second</text>"), std::string::npos);
  for (const char* tick : {">1</text>", ">2</text>", ">4</text>"}) EXPECT_NE(svg.find(tick), std::string::npos) << tick;
}

TEST(RenderSvgChart, ALonePointHasALargerMarkerThanTheCurveItSitsOn) {
  const auto svg = render_svg_chart(qd_chart({{"each run", {{1, 100}, {2, 180}}}, {"chosen", {{2, 180}}}}));
  EXPECT_EQ(count_of(svg, "r=\"3\""), 2U);
  EXPECT_EQ(count_of(svg, "r=\"6\" stroke=\"#ffffff\""), 1U);
}

TEST(RenderSvgChart, LongCurvesHaveNoMarkersButAllPoints) {
  ChartCurve curve{"long", {}};
  for (std::size_t i = 1; i <= kMaxMarkedPoints + 1; ++i) curve.points.push_back({static_cast<double>(i), 1.0});
  const auto svg = render_svg_chart(qd_chart({curve}));
  EXPECT_EQ(count_of(svg, "<circle"), 0U);
  EXPECT_NE(svg.find("data-points=\"" + std::to_string(kMaxMarkedPoints + 1) + "\""), std::string::npos);
  const auto points_at = svg.find(" points=\"");
  const auto points = svg.substr(points_at, svg.find('"', points_at + 9) - points_at);
  EXPECT_EQ(count_of(points, ","), kMaxMarkedPoints + 1);
}

TEST(RenderSvgChart, HostileNamesStayText) {
  const std::string hostile = "<script>alert('x')</script>&\"";
  Chart chart = qd_chart({{hostile, {{1, 1}}}});
  chart.title = hostile;
  chart.y_label = hostile;
  chart.id = "id\"onload=\"x";
  const auto svg = render_svg_chart(chart);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("\"onload"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"), std::string::npos);
}

TEST(RenderSvgChart, AnEmptyChartStillRenders) {
  const auto svg = render_svg_chart(qd_chart({}));
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

}  // namespace
}  // namespace iomark::report
