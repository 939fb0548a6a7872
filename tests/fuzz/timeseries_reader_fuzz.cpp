// The time-series path (an instantaneous side file or results.csv, results/run_points.hpp's
// read_run_points, which the report and `results show` take): the points or a named error,
// never a crash; every figure of every point is finite (the reader refuses the rest).
#include <cmath>
#include <string_view>

#include "fuzz_support.hpp"
#include "iomark/results/run_points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace iomark;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto points = results::read_run_points(text, "fuzz.csv");
  if (!points) {
    fuzz::require(points.error().location().file == "fuzz.csv", "a reader error names its file");
    return 0;
  }
  for (const auto& point : *points) {
    for (const double figure : {point.iops, point.mb_per_s, point.average_response_ms, point.maximum_response_ms,
                                point.p99_response_ms.value_or(0), point.cpu_percent.value_or(0)}) {
      fuzz::require(std::isfinite(figure), "a point's figure is finite");
    }
  }
  (void)results::qd_curves(*points);
  return 0;
}
