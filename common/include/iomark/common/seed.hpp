// Seeds for runs without a fixed seed. IOmeter seeds every target from the GUI's
// high-resolution timer; we do the same, mixed with a caller's counter so that seeds taken
// in the same clock tick still differ.
#pragma once

#include <cstdint>

namespace iomark {

[[nodiscard]] std::uint64_t fresh_seed(std::uint64_t salt) noexcept;

}  // namespace iomark
