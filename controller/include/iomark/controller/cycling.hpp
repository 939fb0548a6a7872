// The stepping rule of IOmeter's cycling tests (docs/iometer-reference.md#cycling): from start s
// with step d, LINEAR (or d == 1) gives s, s+d, s+2d, ...; EXPONENTIAL gives s, s*d, s*d^2, ...
#pragma once

#include <cstdint>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::controller {

// A series longer than this is refused rather than expanded: nobody means 10^9 runs.
inline constexpr std::size_t kMaxCyclingSteps = 4096;

// How a cycling quantity grows once IOmeter's "a step of 1 is linear" rule has been applied.
enum class Progression : std::uint8_t {
  arithmetic,  // s, s+d, s+2d, ...
  geometric,   // s, s*d, s*d^2, ...
};

// LINEAR, or any step <= 1 (a step of 0 counts as 1), is arithmetic; EXPONENTIAL with a
// step of 2 or more is geometric.
[[nodiscard]] Progression progression_of(access_specs::StepType type, std::uint32_t step) noexcept;

// Value number `index` (0-based) of the sequence from `start` by `step`. Zero start/step are
// coerced to 1 as IOmeter's GUI does. Geometric values are computed as IOmeter does,
// s * (int)powf(d, i): single-precision pow, truncated, then multiplied (so 3^16 gives
// 43046720, not 43046721). Values past the range of std::uint64_t saturate at its maximum,
// which is larger than any count a plan can hold.
[[nodiscard]] std::uint64_t step_value(std::uint32_t start, std::uint32_t step, Progression progression,
                                       std::uint64_t index) noexcept;

// The queue depths a CYCLE_OUTSTANDING_IOS series runs, in order (start while <= end).
// Zero start/step are coerced to 1 as IOmeter's GUI does. Fails past kMaxCyclingSteps.
[[nodiscard]] Result<std::vector<std::uint32_t>> queue_depth_steps(const access_specs::QueueDepthCycling& cycling);

}  // namespace iomark::controller
