#include "iomark/results/max_iops_curve.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace iomark::results {

namespace {

constexpr double kLinearLatencyRange = 10;

}  // namespace

std::string limit_ms_text(double limit_ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%g ms", limit_ms);
  return text;
}

std::string bound_text(const MaxIopsRecord& record) { return record.figure + " <= " + limit_ms_text(record.limit_ms); }

std::vector<std::size_t> steps_by_iops(const MaxIopsRecord& record) {
  std::vector<std::size_t> order(record.steps.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return record.steps[a].iops < record.steps[b].iops; });
  return order;
}

bool wants_log_latency_axis(const MaxIopsRecord& record) noexcept {
  return std::any_of(record.steps.begin(), record.steps.end(), [&](const MaxIopsStep& step) {
    return step.latency_ms > kLinearLatencyRange * record.limit_ms;
  });
}

}  // namespace iomark::results
