#include "iomark/common/seed.hpp"

#include <chrono>

namespace iomark {

std::uint64_t fresh_seed(std::uint64_t salt) noexcept {
  const auto ticks = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return ticks * 0x9E3779B97F4A7C15ULL + salt;
}

}  // namespace iomark
