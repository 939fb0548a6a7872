// A small SVG chart writer: a line chart with axes, nice ticks, a title, axis labels and a
// legend, the x axis linear, log2 (outstanding I/Os: 1, 2, 4... evenly spaced) or named
// categories. Every text is XML-escaped, so hostile spec or host names stay text.
//
// The output is a standalone SVG document (with its xmlns), usable as a file and inline in
// HTML alike. Each curve is one <polyline class="curve"> whose data-points attribute and
// points list hold one entry per chart point; curves of up to kMaxMarkedPoints points also
// get a <circle class="marker"> per point, a curve of one point a larger one.
//
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/report/report_model.hpp"

namespace iomark::report {

inline constexpr std::size_t kMaxMarkedPoints = 40;

// `&<>"'` as entities; everything else as is.
[[nodiscard]] std::string escape_xml(std::string_view text);

// Linear ticks on a 1-2-5 step covering [low, high]: the first <= low, the last >= high, at
// least two and at most max_count + 3 of them, for any input. low == high is widened (by half
// a unit, or a millionth of its magnitude when that is more); a non-finite end takes the
// other's value; a range no 1-2-5 step spans in doubles gives its two ends.
[[nodiscard]] std::vector<double> nice_ticks(double low, double high, std::size_t max_count);

// Powers of two covering [low, high] (low > 0; clamped to 2^-1000 .. 2^1000), every second
// or fourth one when there would be more than max_count.
[[nodiscard]] std::vector<double> log2_ticks(double low, double high, std::size_t max_count);

// Powers of ten covering [low, high] (0 < low <= high; clamped to 1e-300 .. 1e300); at least two.
[[nodiscard]] std::vector<double> log10_ticks(double low, double high);

// A tick label: "0.25", "1500", "20k", "1.5M".
[[nodiscard]] std::string format_tick(double value);

struct Box {
  double left{};
  double top{};
  double width{};
  double height{};
};

// Where a chart's parts go: axis ranges and ticks from its points, and the mapping from data
// to pixels (y grows downwards).
class ChartFrame {
 public:
  explicit ChartFrame(const Chart& chart);

  [[nodiscard]] double x_px(double x) const noexcept;
  [[nodiscard]] double y_px(double y) const noexcept;
  [[nodiscard]] const std::vector<double>& x_ticks() const noexcept { return x_ticks_; }
  [[nodiscard]] const std::vector<double>& y_ticks() const noexcept { return y_ticks_; }
  [[nodiscard]] const Box& plot() const noexcept { return plot_; }
  [[nodiscard]] double width() const noexcept { return width_; }
  [[nodiscard]] double height() const noexcept { return height_; }
  [[nodiscard]] double legend_top() const noexcept { return legend_top_; }

 private:
  XScale scale_;
  YScale y_scale_;
  Box plot_;
  double width_{};
  double height_{};
  double legend_top_{};
  double x_low_{}, x_high_{}, y_low_{}, y_high_{};  // in axis units (log2 of x, log10 of y on log axes)
  std::vector<double> x_ticks_;
  std::vector<double> y_ticks_;
};

[[nodiscard]] std::string render_svg_chart(const Chart& chart);

}  // namespace iomark::report
