#include "iomark/workload/data_pattern.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace iomark::workload {
namespace {

void fill_splitmix(std::span<std::byte> buffer, std::uint64_t& state) noexcept {
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= buffer.size(); i += sizeof(std::uint64_t)) {
    const std::uint64_t word = splitmix64(state);
    std::memcpy(buffer.data() + i, &word, sizeof word);
  }
  if (i < buffer.size()) {
    const std::uint64_t word = splitmix64(state);
    std::memcpy(buffer.data() + i, &word, buffer.size() - i);
  }
}

}  // namespace

void fill_repeating(std::span<std::byte> buffer, std::byte value) noexcept {
  std::memset(buffer.data(), std::to_integer<int>(value), buffer.size());
}

void fill_pseudo_random(std::span<std::byte> buffer, IometerLcg& worker_rng) noexcept {
  for (auto& byte : buffer) byte = static_cast<std::byte>(worker_rng.below(255));
}

void fill_full_random(std::span<std::byte> buffer, std::uint64_t seed) noexcept {
  std::uint64_t state = seed;
  fill_splitmix(buffer, state);
}

std::size_t random_buffer_bytes(std::uint32_t max_transfer_bytes, std::uint32_t alignment_bytes) noexcept {
  const std::size_t rounded = (std::size_t{max_transfer_bytes} + alignment_bytes - 1) & ~(std::size_t{alignment_bytes} - 1);
  return std::max(kRandomBufferBytes, rounded);
}

std::uint64_t random_data_offset(IometerLcg& worker_rng, std::size_t buffer_bytes, std::uint32_t size_bytes,
                                 std::uint32_t alignment_bytes) noexcept {
  const std::uint64_t room = buffer_bytes - size_bytes;
  if (room == 0) return 0;
  return worker_rng.below(room) & ~(std::uint64_t{alignment_bytes} - 1);
}

std::function<void(std::span<std::byte>)> make_prepare_filler(access_specs::DataPattern pattern, std::uint64_t seed) {
  switch (pattern) {
    case access_specs::DataPattern::repeating_bytes:
      return [rng = IometerLcg(seed)](std::span<std::byte> chunk) mutable {
        fill_repeating(chunk, static_cast<std::byte>(rng.below(256)));
      };
    case access_specs::DataPattern::pseudo_random:
      // One chunk of WRand(255) bytes, repeated; made on first use at the largest chunk size.
      return [pattern_bytes = std::vector<std::byte>(), seed](std::span<std::byte> chunk) mutable {
        if (pattern_bytes.size() < chunk.size()) {
          pattern_bytes.resize(chunk.size());
          IometerLcg rng(seed);
          fill_pseudo_random(pattern_bytes, rng);
        }
        std::memcpy(chunk.data(), pattern_bytes.data(), chunk.size());
      };
    case access_specs::DataPattern::full_random:
      return [state = seed](std::span<std::byte> chunk) mutable { fill_splitmix(chunk, state); };
  }
  return [](std::span<std::byte> chunk) { fill_repeating(chunk, std::byte{0}); };
}

}  // namespace iomark::workload
