#include "iomark/controller/cycling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace iomark::controller {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

}  // namespace

Progression progression_of(access_specs::StepType type, std::uint32_t step) noexcept {
  return type == access_specs::StepType::linear || step <= 1 ? Progression::arithmetic : Progression::geometric;
}

std::uint64_t step_value(std::uint32_t start, std::uint32_t step, Progression progression,
                         std::uint64_t index) noexcept {
  const std::uint64_t s = std::max<std::uint32_t>(start, 1);
  const std::uint64_t d = std::max<std::uint32_t>(step, 1);
  if (progression == Progression::arithmetic) {
    if (index > (kSaturated - s) / d) return kSaturated;
    return s + index * d;
  }
  // powf, not pow: IOmeter truncates the single-precision result before multiplying, which
  // differs from the exact power once d^i needs more than 24 bits.
  const float power = std::pow(static_cast<float>(d), static_cast<float>(index));
  const double value = std::trunc(static_cast<double>(power)) * static_cast<double>(s);
  // 2^64 exactly; anything at or above it does not fit.
  if (!(value < static_cast<double>(kSaturated))) return kSaturated;
  return static_cast<std::uint64_t>(value);
}

Result<std::vector<std::uint32_t>> queue_depth_steps(const access_specs::QueueDepthCycling& cycling) {
  const auto progression = progression_of(cycling.step_type, cycling.step);
  std::vector<std::uint32_t> depths;
  for (std::uint64_t i = 0;; ++i) {
    const std::uint64_t value = step_value(cycling.start, cycling.step, progression, i);
    if (value > cycling.end) break;
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
