#pragma once

#include <algorithm>
#include <chrono>

#include "iomark/common/units.hpp"

namespace iomark::transport::detail {

// A bound on one wait, so that "wait forever" (Nanoseconds::max()) cannot overflow a clock
// when a condition variable adds it to now(); a year is beyond every deadline here.
[[nodiscard]] inline Nanoseconds clamp_wait(Nanoseconds timeout) noexcept {
  return std::clamp<Nanoseconds>(timeout, Nanoseconds::zero(), std::chrono::hours(24 * 365));
}

}  // namespace iomark::transport::detail
