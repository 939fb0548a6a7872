#include "iomark/controller/cycling.hpp"

#include <algorithm>
#include <cmath>

namespace iomark::controller {

Result<std::vector<std::uint32_t>> queue_depth_steps(const access_specs::QueueDepthCycling& cycling) {
  const std::uint64_t start = std::max<std::uint32_t>(cycling.start, 1);
  const std::uint64_t step = std::max<std::uint32_t>(cycling.step, 1);
  const bool linear = cycling.step_type == access_specs::StepType::linear || step == 1;
  std::vector<std::uint32_t> depths;
  for (std::uint64_t i = 0;; ++i) {
    // IOmeter computes the exponential form with floating-point pow and truncates.
    const double value = linear ? static_cast<double>(start + i * step)
                                : static_cast<double>(start) * std::pow(static_cast<double>(step), static_cast<double>(i));
    if (value > static_cast<double>(cycling.end)) break;
    if (depths.size() == kMaxCyclingSteps) {
      return fail(ErrorCode::validation_error, "queue depth cycling " + std::to_string(cycling.start) + ".." +
                                                   std::to_string(cycling.end) + " would make more than " +
                                                   std::to_string(kMaxCyclingSteps) + " runs");
    }
    depths.push_back(static_cast<std::uint32_t>(value));
  }
  return depths;
}

}  // namespace iomark::controller
