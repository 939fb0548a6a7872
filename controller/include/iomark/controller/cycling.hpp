// The stepping rule of IOmeter's cycling tests (iometer-spec §3.2): from start s with step d,
// LINEAR (or d == 1) gives s, s+d, s+2d, ...; EXPONENTIAL gives s, s*d, s*d^2, ...
#pragma once

#include <cstdint>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::controller {

// A series longer than this is refused rather than expanded: nobody means 10^9 runs.
inline constexpr std::size_t kMaxCyclingSteps = 4096;

// The queue depths a CYCLE_OUTSTANDING_IOS series runs, in order (start while <= end).
// Zero start/step are coerced to 1 as IOmeter's GUI does. Fails past kMaxCyclingSteps.
[[nodiscard]] Result<std::vector<std::uint32_t>> queue_depth_steps(const access_specs::QueueDepthCycling& cycling);

}  // namespace iomark::controller
