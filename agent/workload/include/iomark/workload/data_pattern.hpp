// The data write I/Os carry (docs/iometer-reference.md#data-pattern): repeating bytes, pseudo
// random, full random.
//
// The caller owns every buffer (aligned for O_DIRECT, allocated before the test); nothing here
// allocates, and the per-I/O functions are O(1) apart from fill_repeating's memset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/workload/iometer_lcg.hpp"

namespace iomark::workload {

// Dynamo's RANDOM_BUFFER_SIZE: the full-random source buffer, 16 MiB.
inline constexpr std::size_t kRandomBufferBytes = std::size_t{16} << 20;

// splitmix64: the next 64-bit value of a fast, well-mixed sequence over `state` (the generator
// behind full random and the reduction patterns' pool and content words).
[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Repeating bytes: before each write the whole transfer is set to one byte value.
void fill_repeating(std::span<std::byte> buffer, std::byte value) noexcept;

// Pseudo random: Dynamo fills the write buffer once at test start with WRand(255) per byte
// (values 0..254), drawing from the worker RNG; `worker_rng` advances by buffer.size() draws.
void fill_pseudo_random(std::span<std::byte> buffer, IometerLcg& worker_rng) noexcept;

// Full random: fills the source buffer with incompressible bytes, the same for the same seed.
// Dynamo used the C library's srand(seed)/rand(), whose sequence differs between C
// libraries; we use splitmix64 so the data is identical on every host and fast to make.
void fill_full_random(std::span<std::byte> buffer, std::uint64_t seed) noexcept;

// The size of the full-random source buffer for a worker: 16 MiB, or the largest transfer
// rounded up to `alignment_bytes` when that is larger (Dynamo indexed past the end of its
// 16 MiB buffer for transfers above 16 MiB). Precondition: alignment_bytes is a power of two.
[[nodiscard]] std::size_t random_buffer_bytes(std::uint32_t max_transfer_bytes, std::uint32_t alignment_bytes) noexcept;

// Where in the full-random buffer a write of `size_bytes` takes its data: WRand(buffer - size)
// rounded down to `alignment_bytes`, so the data pointer keeps the buffer's alignment.
// Deliberate fix (docs/iometer-reference.md#fix-random-buffer-alignment): Dynamo rounded down to 4
// bytes, which O_DIRECT rejects. When the transfer is as large as the buffer the offset is 0 and
// the RNG is not stepped (Dynamo divided by zero there). Preconditions: size_bytes <= buffer_bytes,
// alignment_bytes is a power of two.
[[nodiscard]] std::uint64_t random_data_offset(IometerLcg& worker_rng, std::size_t buffer_bytes,
                                               std::uint32_t size_bytes, std::uint32_t alignment_bytes) noexcept;

// Fills successive chunks of a test file being prepared (docs/iometer-reference.md#prepare): a
// repeating byte per chunk, one pseudo-random chunk repeated, or fresh random data per chunk. The
// returned callable owns its state; suitable for iomark::targets::prepare_test_file.
[[nodiscard]] std::function<void(std::span<std::byte>)> make_prepare_filler(access_specs::DataPattern pattern,
                                                                            std::uint64_t seed);

}  // namespace iomark::workload
