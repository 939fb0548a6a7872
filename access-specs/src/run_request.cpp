#include "iomark/access_specs/run_request.hpp"

#include <array>
#include <charconv>
#include <cmath>

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

std::string_view to_string(LatencyFigure figure) {
  switch (figure) {
    case LatencyFigure::average_ms: return "avg";
    case LatencyFigure::p99_ms: return "p99";
    case LatencyFigure::p99_9_ms: return "p99.9";
  }
  return "p99";  // not reached: the switch names every figure
}

namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

Result<LatencyBound> parse_latency_bound(std::string_view text) {
  const auto refuse = [&](const std::string& why) {
    return fail(Error(ErrorCode::invalid_argument, "\"" + std::string(text) + "\": " + why).in_field("--find-max-iops"));
  };
  const auto operator_at = text.find("<=");
  if (operator_at == std::string_view::npos) return refuse("expected FIGURE<=LIMIT, e.g. p99<=2ms");
  const auto figure_text = trimmed(text.substr(0, operator_at));
  LatencyBound bound;
  bool known = false;
  for (const auto figure : {LatencyFigure::average_ms, LatencyFigure::p99_ms, LatencyFigure::p99_9_ms}) {
    if (figure_text == to_string(figure)) {
      bound.figure = figure;
      known = true;
    }
  }
  if (!known) return refuse("the figure must be avg, p99 or p99.9");
  auto limit_text = trimmed(text.substr(operator_at + 2));
  double unit_ms = 0;
  for (const auto& [suffix, scale] : {std::pair{std::string_view("us"), 0.001}, std::pair{std::string_view("ms"), 1.0},
                                      std::pair{std::string_view("s"), 1000.0}}) {
    if (limit_text.ends_with(suffix)) {
      unit_ms = scale;
      limit_text = trimmed(limit_text.substr(0, limit_text.size() - suffix.size()));
      break;
    }
  }
  if (unit_ms == 0) return refuse("the limit needs a unit: us, ms or s");
  double value = 0;
  const auto* end = limit_text.data() + limit_text.size();
  const auto [stop, error] = std::from_chars(limit_text.data(), end, value);
  if (error != std::errc{} || stop != end || !std::isfinite(value)) return refuse("the limit is not a number");
  bound.limit_ms = value * unit_ms;
  if (!(bound.limit_ms >= kMinLatencyBoundMs && bound.limit_ms <= kMaxLatencyBoundMs)) {
    return refuse("the limit must be 1us to 60s");
  }
  return bound;
}

}  // namespace iomark::access_specs
