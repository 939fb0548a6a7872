// The IOPS test of SNIA's Solid State Storage Performance Test Specification, Enterprise
// (PTS-E), as `iomark pts iops` runs it (docs/characterize.md#pts-iops): every round runs each
// read/write mix (the outer loop) with each block size (the inner loop), all random, and the
// rounds repeat until the IOPS of 4 KiB random writes (0/100) is steady.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"

namespace iomark::access_specs {

struct PtsIopsMatrix {
  std::vector<std::uint32_t> read_percents{100, 95, 65, 50, 35, 5, 0};  // % reads: 100/0 .. 0/100
  std::vector<std::uint64_t> block_bytes{1 << 20, 128 << 10, 64 << 10, 32 << 10, 16 << 10, 8 << 10, 4 << 10, 512};
  friend bool operator==(const PtsIopsMatrix&, const PtsIopsMatrix&) = default;
};

// The cell whose IOPS is judged steady: 4 KiB random writes.
inline constexpr std::uint64_t kPtsTrackedBlockBytes = 4096;
inline constexpr std::uint32_t kPtsTrackedReadPercent = 0;

// A block size above this is not an IOPS test (PTS-E's largest is 1 MiB).
inline constexpr std::uint64_t kMaxPtsBlockBytes = std::uint64_t{1} << 20;

// "1M,128K,4K,512" (parse_size's forms, in the order given): each a multiple of 512 bytes up
// to kMaxPtsBlockBytes, no repeats. Errors: invalid_argument, field "--block-sizes".
[[nodiscard]] Result<std::vector<std::uint64_t>> parse_pts_block_sizes(std::string_view text);

// "100/0,65/35,0/100": read/write percentages adding to 100, in the order given, no repeats.
// Errors: invalid_argument, field "--mixes".
[[nodiscard]] Result<std::vector<std::uint32_t>> parse_pts_mixes(std::string_view text);

// A matrix that holds the tracked cell. Errors: invalid_argument naming the flag that lacks it.
[[nodiscard]] Result<void> check_pts_matrix(const PtsIopsMatrix& matrix);

// "4 KiB", "512 B", "1 MiB"; "65/35".
[[nodiscard]] std::string pts_block_text(std::uint64_t block_bytes);
[[nodiscard]] std::string pts_mix_text(std::uint32_t read_percent);

// One cell's access spec, "PTS 4 KiB 65/35": one line, 100% random, aligned to 4 KiB (to the
// block size below it), as PTS-E asks.
[[nodiscard]] AccessSpec pts_iops_spec(std::uint64_t block_bytes, std::uint32_t read_percent);

// Every cell's spec in the order a round runs them: mixes outer, block sizes inner.
[[nodiscard]] std::vector<AccessSpec> pts_iops_specs(const PtsIopsMatrix& matrix);

}  // namespace iomark::access_specs
