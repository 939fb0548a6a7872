#include "iomark/access_specs/run_request.hpp"

#include <array>

namespace iomark::access_specs {

namespace {

constexpr std::array kSteadyFigures{SteadyFigure::iops, SteadyFigure::mb_per_s, SteadyFigure::average_ms,
                                    SteadyFigure::p99_ms};

}  // namespace

Result<SteadyFigure> parse_steady_figure(std::string_view text) {
  for (const auto figure : kSteadyFigures) {
    if (text == to_string(figure)) return figure;
  }
  return fail(Error(ErrorCode::invalid_argument, "\"" + std::string(text) + "\" is not iops, mbps, avg or p99")
                  .in_field("--steady-state"));
}

std::string_view to_string(SteadyFigure figure) {
  switch (figure) {
    case SteadyFigure::iops: return "iops";
    case SteadyFigure::mb_per_s: return "mbps";
    case SteadyFigure::average_ms: return "avg";
    case SteadyFigure::p99_ms: return "p99";
  }
  return "iops";  // not reached: the switch names every figure
}

}  // namespace iomark::access_specs
