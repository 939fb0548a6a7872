#include "iomark/report/svg_chart.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace iomark::report {

namespace {

constexpr double kWidth = 640;
constexpr double kPlotLeft = 80;
constexpr double kPlotTop = 40;
constexpr double kPlotWidth = 530;
constexpr double kPlotHeight = 300;
constexpr double kLegendRow = 18;
constexpr std::size_t kLegendColumns = 2;
constexpr std::size_t kLegendLabelChars = 48;
// Category names longer than this are drawn slanted, which needs room below the axis.
constexpr std::size_t kUprightCategoryChars = 6;
constexpr double kSlantedLabelRoom = 80;

// Tableau 10: distinguishable, and readable for the common colour-vision deficiencies.
constexpr std::array<std::string_view, 10> kColours{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

std::string number(double value) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.1f", value);
  return text.data();
}

bool slanted_categories(const Chart& chart) {
  return std::any_of(chart.categories.begin(), chart.categories.end(),
                     [](const std::string& name) { return name.size() > kUprightCategoryChars; });
}

std::string shortened(const std::string& label) {
  if (label.size() <= kLegendLabelChars) return label;
  std::size_t cut = kLegendLabelChars - 1;
  while (cut > 0 && (static_cast<unsigned char>(label[cut]) & 0xC0U) == 0x80U) --cut;  // not inside a UTF-8 character
  return label.substr(0, cut) + "\u2026";
}

}  // namespace

std::string escape_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<double> nice_ticks(double low, double high, std::size_t max_count) {
  // Whatever the data: a non-finite end takes the other's value (0 if both are), a reversed
  // range is swapped, and an empty one is widened by half a unit or a millionth of its
  // magnitude, whichever is more (at 1e17, half a unit is lost to rounding and the step
  // would be 0).
  if (!std::isfinite(low)) low = std::isfinite(high) ? high : 0.0;
  if (!std::isfinite(high)) high = low;
  if (low > high) std::swap(low, high);
  if (!(high > low)) {
    const double widen = std::max(0.5, std::fabs(low) * 1e-6);
    constexpr double kLargest = std::numeric_limits<double>::max();  // widening must stay finite
    low = std::max(low - widen, -kLargest);
    high = std::min(high + widen, kLargest);
  }
  const std::size_t count = std::max<std::size_t>(max_count, 2);
  const double raw = (high - low) / static_cast<double>(count - 1);
  // A range wider than a double holds (-1e308 .. 1e308) has no 1-2-5 step: its two ends.
  if (!std::isfinite(raw) || !(raw > 0)) return {low, high};
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude * 10;
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (magnitude * factor >= raw) {
      step = magnitude * factor;
      break;
    }
  }
  const double first = std::floor(low / step + 1e-9);
  const double last = std::ceil(high / step - 1e-9);
  // At most count + 2 steps for any finite range; the guard keeps the loop bounded should
  // rounding ever say otherwise. Past 2^53 steps from zero (a range of a few units at 1e17)
  // consecutive step numbers are no longer distinct doubles: the two ends then.
  constexpr double kExactSteps = 0x1p53;
  if (!(step > 0) || !(std::fabs(first) < kExactSteps) || !(std::fabs(last) < kExactSteps) ||
      !(last - first <= static_cast<double>(count) + 2)) {
    return {low, high};
  }
  std::vector<double> ticks;
  const auto steps = static_cast<std::size_t>(last - first);
  for (std::size_t i = 0; i <= steps; ++i) {
    const double tick = (first + static_cast<double>(i)) * step;
    ticks.push_back(tick == 0.0 ? 0.0 : tick);
  }
  // Near the largest double the tick past `high` can round to infinity: the two ends then.
  if (ticks.size() < 2 || !std::isfinite(ticks.front()) || !std::isfinite(ticks.back())) return {low, high};
  return ticks;
}

namespace {
// Log axes: a value outside what the exponents below can index reads as the nearest end.
double clamp_for_log(double value, double lowest, double highest) {
  if (std::isnan(value)) return 1.0;
  return std::clamp(value, lowest, highest);
}
}  // namespace

std::vector<double> log2_ticks(double low, double high, std::size_t max_count) {
  low = clamp_for_log(low, 0x1p-1000, 0x1p1000);
  high = clamp_for_log(high, low, 0x1p1000);
  int first = static_cast<int>(std::floor(std::log2(low) + 1e-9));
  int last = static_cast<int>(std::ceil(std::log2(high) - 1e-9));
  if (last <= first) {  // one power: one below it too (not below 1 when it is 1 or more), one above
    last = first + 1;
    if (first > 0) --first;
  }
  int stride = 1;
  while (static_cast<std::size_t>((last - first + stride - 1) / stride + 1) > std::max<std::size_t>(max_count, 2)) {
    stride *= 2;
  }
  std::vector<double> ticks;
  int e = first;
  for (; e < last; e += stride) ticks.push_back(std::ldexp(1.0, e));
  // The first at or past `high` (<= 2^1000), within what a double holds whatever the stride.
  ticks.push_back(std::ldexp(1.0, std::min(e, 1023)));
  return ticks;
}

std::vector<double> log10_ticks(double low, double high) {
  low = clamp_for_log(low, 1e-300, 1e300);
  high = clamp_for_log(high, low, 1e300);
  const int first = static_cast<int>(std::floor(std::log10(low) + 1e-9));
  const int last = std::max(static_cast<int>(std::ceil(std::log10(high) - 1e-9)), first + 1);
  std::vector<double> ticks;
  for (int e = first; e <= last; ++e) ticks.push_back(std::pow(10.0, e));
  return ticks;
}

std::string format_tick(double value) {
  std::array<char, 32> text{};
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e6) {
    std::snprintf(text.data(), text.size(), "%gM", value / 1e6);
  } else if (magnitude >= 1e4) {
    std::snprintf(text.data(), text.size(), "%gk", value / 1e3);
  } else {
    std::snprintf(text.data(), text.size(), "%.6g", value);
  }
  return text.data();
}

ChartFrame::ChartFrame(const Chart& chart) : scale_(chart.x_scale), y_scale_(chart.y_scale), plot_{kPlotLeft, kPlotTop, kPlotWidth, kPlotHeight} {
  double x_min = INFINITY, x_max = -INFINITY, y_min = 0, y_max = -INFINITY, y_min_positive = INFINITY;
  for (const auto& curve : chart.curves) {
    for (const auto& point : curve.points) {
      if (!std::isfinite(point.x) || !std::isfinite(point.y)) continue;  // the readers refuse them; never drawn
      x_min = std::min(x_min, point.x);
      x_max = std::max(x_max, point.x);
      y_min = std::min(y_min, point.y);
      y_max = std::max(y_max, point.y);
      if (point.y > 0) y_min_positive = std::min(y_min_positive, point.y);
    }
  }
  if (!std::isfinite(x_min)) x_min = x_max = 1;
  if (!std::isfinite(y_max)) y_max = 1;
  switch (scale_) {
    case XScale::log2:
      x_ticks_ = log2_ticks(std::max(x_min, 1.0), std::max(x_max, 1.0), 12);
      x_low_ = std::log2(x_ticks_.front());
      x_high_ = std::log2(x_ticks_.back());
      break;
    case XScale::linear:
      x_ticks_ = nice_ticks(x_min, x_max, 10);
      x_low_ = x_ticks_.front();
      x_high_ = x_ticks_.back();
      break;
    case XScale::categories:
      for (std::size_t i = 0; i < chart.categories.size(); ++i) x_ticks_.push_back(static_cast<double>(i));
      x_low_ = -0.5;
      x_high_ = static_cast<double>(std::max<std::size_t>(chart.categories.size(), 1)) - 0.5;
      break;
  }
  if (y_scale_ == YScale::log10) {
    if (!std::isfinite(y_min_positive)) y_min_positive = y_max = 1;
    y_ticks_ = log10_ticks(y_min_positive, y_max);
    y_low_ = std::log10(y_ticks_.front());
    y_high_ = std::log10(y_ticks_.back());
  } else {
    y_ticks_ = nice_ticks(y_min, y_max, 6);
    y_low_ = y_ticks_.front();
    y_high_ = y_ticks_.back();
  }
  width_ = kWidth;
  legend_top_ = plot_.top + plot_.height + 60 + (slanted_categories(chart) ? kSlantedLabelRoom : 0);
  const std::size_t rows = (chart.curves.size() + kLegendColumns - 1) / kLegendColumns;
  height_ = legend_top_ + static_cast<double>(rows) * kLegendRow + 10;
}

double ChartFrame::x_px(double x) const noexcept {
  const double axis = scale_ == XScale::log2 ? std::log2(std::max(x, 1e-12)) : x;
  return plot_.left + (axis - x_low_) / (x_high_ - x_low_) * plot_.width;
}

double ChartFrame::y_px(double y) const noexcept {
  const double axis = y_scale_ == YScale::log10 ? std::max(std::log10(std::max(y, 1e-300)), y_low_) : y;
  return plot_.top + plot_.height - (axis - y_low_) / (y_high_ - y_low_) * plot_.height;
}

std::string render_svg_chart(const Chart& chart) {
  const ChartFrame frame(chart);
  const Box& plot = frame.plot();
  const double bottom = plot.top + plot.height;
  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"" + escape_xml(chart.id) +
         "\" width=\"" + number(frame.width()) + "\" height=\"" + number(frame.height()) + "\" viewBox=\"0 0 " +
         number(frame.width()) + " " + number(frame.height()) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg += "<text class=\"chart-title\" x=\"" + number(plot.left + plot.width / 2) +
         "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" + escape_xml(chart.title) +
         "</text>\n";

  svg += "<g class=\"grid\" stroke=\"#e3e3e3\">\n";
  for (const double tick : frame.y_ticks()) {
    svg += "<line x1=\"" + number(plot.left) + "\" x2=\"" + number(plot.left + plot.width) + "\" y1=\"" +
           number(frame.y_px(tick)) + "\" y2=\"" + number(frame.y_px(tick)) + "\"/>\n";
  }
  svg += "</g>\n<g class=\"axis y-axis\">\n";
  for (const double tick : frame.y_ticks()) {
    svg += "<text class=\"tick\" x=\"" + number(plot.left - 6) + "\" y=\"" + number(frame.y_px(tick) + 4) +
           "\" text-anchor=\"end\">" + escape_xml(format_tick(tick)) + "</text>\n";
  }
  svg += "</g>\n<g class=\"axis x-axis\">\n";
  const bool slanted = slanted_categories(chart);
  for (const double tick : frame.x_ticks()) {
    const double x = frame.x_px(tick);
    std::string label = chart.x_scale == XScale::categories ? chart.categories.at(static_cast<std::size_t>(tick))
                                                            : format_tick(tick);
    svg += "<line x1=\"" + number(x) + "\" x2=\"" + number(x) + "\" y1=\"" + number(bottom) + "\" y2=\"" +
           number(bottom + 5) + "\" stroke=\"#333\"/>\n";
    if (slanted) {
      svg += "<text class=\"tick\" x=\"" + number(x) + "\" y=\"" + number(bottom + 16) +
             "\" text-anchor=\"end\" transform=\"rotate(-40 " + number(x) + " " + number(bottom + 16) + ")\">" +
             escape_xml(label) + "</text>\n";
    } else {
      svg += "<text class=\"tick\" x=\"" + number(x) + "\" y=\"" + number(bottom + 18) + "\" text-anchor=\"middle\">" +
             escape_xml(label) + "</text>\n";
    }
  }
  svg += "</g>\n";
  svg += "<rect x=\"" + number(plot.left) + "\" y=\"" + number(plot.top) + "\" width=\"" + number(plot.width) +
         "\" height=\"" + number(plot.height) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  const double x_label_y = bottom + 40 + (slanted ? kSlantedLabelRoom : 0);
  svg += "<text class=\"axis-label x-label\" x=\"" + number(plot.left + plot.width / 2) + "\" y=\"" +
         number(x_label_y) + "\" text-anchor=\"middle\">" + escape_xml(chart.x_label) + "</text>\n";
  const double y_label_y = plot.top + plot.height / 2;
  svg += "<text class=\"axis-label y-label\" x=\"18\" y=\"" + number(y_label_y) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 18 " + number(y_label_y) + ")\">" +
         escape_xml(chart.y_label) + "</text>\n";

  for (std::size_t c = 0; c < chart.curves.size(); ++c) {
    const ChartCurve& curve = chart.curves[c];
    const std::string colour(kColours[c % kColours.size()]);
    // Past ten curves colours repeat; a dash pattern tells them apart.
    const std::string dash = c >= kColours.size() ? " stroke-dasharray=\"6 3\"" : "";
    std::string points;
    for (const ChartPoint& point : curve.points) {
      if (!points.empty()) points += ' ';
      points += number(frame.x_px(point.x)) + "," + number(frame.y_px(point.y));
    }
    svg += "<g class=\"series\">\n<polyline class=\"curve\" data-label=\"" + escape_xml(curve.label) +
           "\" data-points=\"" + std::to_string(curve.points.size()) + "\" fill=\"none\" stroke=\"" + colour +
           "\" stroke-width=\"2\"" + dash + " points=\"" + points + "\"/>\n";
    if (curve.points.size() <= kMaxMarkedPoints) {
      // A lone point has no line to show it and usually marks a point of another curve (the
      // step a search chose): larger, with a white ring, so it stands out on top of it.
      const std::string shape = curve.points.size() == 1 ? "\" r=\"6\" stroke=\"#ffffff\" stroke-width=\"2\" fill=\""
                                                         : "\" r=\"3\" fill=\"";
      for (const ChartPoint& point : curve.points) {
        svg += "<circle class=\"marker\" cx=\"" + number(frame.x_px(point.x)) + "\" cy=\"" +
               number(frame.y_px(point.y)) + shape + colour + "\"/>\n";
      }
    }
    svg += "</g>\n";
  }

  svg += "<g class=\"legend\">\n";
  const double column_width = (kWidth - plot.left) / static_cast<double>(kLegendColumns);
  for (std::size_t c = 0; c < chart.curves.size(); ++c) {
    const double x = plot.left + static_cast<double>(c % kLegendColumns) * column_width;
    const double y = frame.legend_top() + static_cast<double>(c / kLegendColumns) * kLegendRow;
    const std::string colour(kColours[c % kColours.size()]);
    const std::string dash = c >= kColours.size() ? " stroke-dasharray=\"6 3\"" : "";
    svg += "<line x1=\"" + number(x) + "\" x2=\"" + number(x + 22) + "\" y1=\"" + number(y - 4) + "\" y2=\"" +
           number(y - 4) + "\" stroke=\"" + colour + "\" stroke-width=\"3\"" + dash + "/>\n";
    svg += "<text class=\"legend-entry\" x=\"" + number(x + 28) + "\" y=\"" + number(y) + "\">" +
           escape_xml(shortened(chart.curves[c].label)) + "</text>\n";
  }
  svg += "</g>\n</svg>\n";
  return svg;
}

}  // namespace iomark::report
