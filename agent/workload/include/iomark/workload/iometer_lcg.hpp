// IOmeter's random number generator (docs/iometer-reference.md#rng), reproduced bit for bit so that
// a fixed seed yields the same line choices, read/write decisions and offsets as Dynamo.
#pragma once

#include <cstdint>

namespace iomark::workload {

// The 64-bit linear congruential generator x <- A*x + B (mod 2^64) with IOmeter's constants.
// Dynamo keeps one per target (TRand: read/write, random/sequential, random offsets) and one
// per worker (WRand: burst line, pseudo-random fill, full-random data offsets). Plain value:
// copy it to fork a stream, compare states to check determinism. Not thread-safe.
class IometerLcg {
 public:
  static constexpr std::uint64_t kMultiplier = 136204069;
  static constexpr std::uint64_t kIncrement = 28500701229;

  constexpr explicit IometerLcg(std::uint64_t seed = 0) noexcept : state_(seed) {}

  // Steps the generator and returns the new state.
  constexpr std::uint64_t next() noexcept {
    state_ = kMultiplier * state_ + kIncrement;  // unsigned wrap-around is the "mod 2^64"
    return state_;
  }

  // IOmeter's Rand(limit): steps, then returns the new state modulo `limit` (0..limit-1).
  // Precondition: limit > 0.
  constexpr std::uint64_t below(std::uint64_t limit) noexcept { return next() % limit; }

  [[nodiscard]] constexpr std::uint64_t state() const noexcept { return state_; }

  friend constexpr bool operator==(const IometerLcg&, const IometerLcg&) = default;

 private:
  std::uint64_t state_;
};

}  // namespace iomark::workload
