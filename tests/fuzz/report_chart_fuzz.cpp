// The report's number and chart path (report/svg_chart.hpp, report/report_model.hpp) on
// arbitrary input, two ways chosen by the first byte:
// - even: the rest as doubles (every bit pattern: infinities, NaN, -1e17, denormals) for the
//   tick functions and a chart of two curves, rendered to SVG;
// - odd: the whole input as a results file's text (`'` and `{`, how results.csv and JSON
//   begin, are odd), read as the report reads it, built into a report model and rendered.
// Never a crash, a hang, an empty tick list or a non-finite tick.
#include <cmath>
#include <cstring>
#include <string_view>

#include "fuzz_support.hpp"
#include "iomark/report/html_report.hpp"
#include "iomark/report/report_model.hpp"
#include "iomark/report/report_source.hpp"
#include "iomark/report/svg_chart.hpp"

namespace {

using namespace iomark;

void check_ticks(const std::vector<double>& ticks, std::size_t most, std::string_view what) {
  fuzz::require(ticks.size() >= 2, std::string(what) + " gives at least two ticks");
  fuzz::require(ticks.size() <= most, std::string(what) + " gives a bounded number of ticks");
  for (const double tick : ticks) fuzz::require(std::isfinite(tick), std::string(what) + " gives finite ticks");
}

void chart_from_doubles(const std::uint8_t* data, std::size_t size) {
  std::vector<double> values(size / sizeof(double));
  if (!values.empty()) std::memcpy(values.data(), data, values.size() * sizeof(double));
  if (values.size() >= 2) {
    const std::size_t count = static_cast<std::size_t>(data[0]) % 16;
    check_ticks(report::nice_ticks(values[0], values[1], count), std::max<std::size_t>(count, 2) + 3, "nice_ticks");
    check_ticks(report::log2_ticks(values[0], values[1], 12), 13, "log2_ticks");
    const auto ten = report::log10_ticks(values[0], values[1]);
    fuzz::require(ten.size() >= 2 && ten.size() <= 1300, "log10_ticks gives a bounded cover");
    (void)report::format_tick(values[0]);
  }
  report::Chart chart;
  chart.id = "fuzz";
  chart.title = "fuzz";
  const std::uint8_t kind = size > 0 ? data[size - 1] : 0;
  chart.x_scale = static_cast<report::XScale>(kind % 3);
  chart.y_scale = static_cast<report::YScale>((kind / 3) % 2);
  chart.curves.resize(2);
  for (std::size_t i = 0; i + 1 < values.size(); i += 2) {
    chart.curves[(i / 2) % 2].points.push_back({values[i], values[i + 1]});
  }
  if (chart.x_scale == report::XScale::categories) {
    for (std::size_t i = 0; i < chart.curves[0].points.size(); ++i) chart.categories.push_back(std::to_string(i));
  }
  (void)report::render_svg_chart(chart);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if ((data[0] & 1U) == 0) {
    chart_from_doubles(data + 1, size - 1);
    return 0;
  }
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto source = report::read_report_source(text, "fuzz");
  if (!source) return 0;
  std::vector<report::ReportSource> sources;
  sources.push_back(std::move(*source));
  const auto model = report::build_report(std::move(sources), "fuzz");
  (void)report::render_html_report(model);
  return 0;
}
