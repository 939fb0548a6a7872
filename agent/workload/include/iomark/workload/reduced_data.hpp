// Write data for iomark's data-reduction patterns (access_specs::DataReduction):
// bytes that block compressors shrink R:1 and that deduplicate D:1 over a whole target.
//
// API: "fill the bytes for a write of N bytes at target offset X". The bytes depend only on
// (pattern, target layout, offset), never on who writes or when, so every worker and every run
// that writes a unit writes the same bytes there, and a full write of the target has
// unique units / total units = distinct_contents / total_units ~ 1/D.
//
// How the bytes are made (docs/data-reduction.md):
// * Compression: every 4 KiB compression block is 8 segments of 512 bytes; each segment is
//   `random_bytes_per_segment()` random bytes followed by zeros. The count is 512/R less the
//   few bytes a compressor spends per run, calibrated against lz4, lzo, zstd and zlib
//   (tests/unit/workload/reduced_data_compression_test.cpp), so any compression block of
//   512 B and up reaches R:1.
// * Dedupe: the target's region is cut into dedupe units from its start; unit u carries
//   content c = u mod distinct_contents, distinct_contents = round(total_units / D) (at least 1).
//   The 4 KiB block j of content c takes its random bytes from the pool at a slot chosen by
//   (content key, c, j) and XORs them with a 64-bit word of (content key, c, j): equal
//   contents are byte-identical, different ones differ in every random byte.
// * The pool: 16 MiB of random bytes made once by ReducedDataPool::create (at test start); a
//   write only copies (XOR) and zeroes: no compression, no allocation, no lock per I/O.
//   Consecutive contents take consecutive pool slots, so no slot repeats within 16 MiB of a
//   sequentially written target (more than zstd's default window).
//
// Threading: a ReducedDataPool is immutable after create(); fill() may run on any number of
// threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "iomark/access_specs/data_reduction.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::workload {

// The block every compression ratio is built in, and the segments inside it.
inline constexpr std::uint32_t kCompressionBlockBytes = 4096;
inline constexpr std::uint32_t kCompressionSegmentBytes = 512;
inline constexpr std::size_t kReducedPoolBytes = std::size_t{16} << 20;

// Where a target's dedupe units lie and which content family it has.
struct ReducedTarget {
  std::uint64_t region_start_bytes{};  // the dedupe unit grid starts here
  std::uint64_t region_bytes{};        // the area written: total units = ceil(region / unit)
  // Targets with different keys never share content. The agent derives it from its host
  // name and the target's path, so it is the same for every worker and run on that target.
  std::uint64_t content_key{};
  friend bool operator==(const ReducedTarget&, const ReducedTarget&) = default;
};

// The random bytes per 512-byte segment that make a compression ratio of `ratio` (1..16):
// 512 for 1, fewer (never less than 1) above.
[[nodiscard]] std::uint32_t random_bytes_per_segment(double compress_ratio) noexcept;

// The number of distinct unit contents a target of `target` gets at this reduction.
[[nodiscard]] std::uint64_t distinct_contents(const access_specs::DataReduction& reduction,
                                              const ReducedTarget& target) noexcept;

// A 64-bit key from text (FNV-1a), for ReducedTarget::content_key.
[[nodiscard]] std::uint64_t content_key_of(std::string_view text) noexcept;

class ReducedDataPool {
 public:
  // Validates the reduction and makes the pool (allocates kReducedPoolBytes). Errors: those
  // of access_specs::validate(DataReduction).
  [[nodiscard]] static Result<ReducedDataPool> create(const access_specs::DataReduction& reduction);

  // Fills `out` with what a write of out.size() bytes at `offset_bytes` of `target` carries.
  // Any size and offset: a part of a unit or of a compression block gets that part of its
  // bytes. Offsets below the region's start count from 0. O(out.size()), noexcept.
  void fill(std::span<std::byte> out, std::uint64_t offset_bytes, const ReducedTarget& target) const noexcept;

  [[nodiscard]] const access_specs::DataReduction& reduction() const noexcept { return reduction_; }
  [[nodiscard]] std::uint32_t random_bytes_per_segment() const noexcept { return random_per_segment_; }

 private:
  ReducedDataPool(access_specs::DataReduction reduction, std::vector<std::byte> random);
  void fill_block(std::byte* out, std::uint64_t content, std::uint64_t block_in_unit,
                  std::uint64_t content_key) const noexcept;

  access_specs::DataReduction reduction_;
  std::vector<std::byte> random_;
  std::uint32_t random_per_segment_{};
  std::uint64_t pool_slots_{};
};

// Fills successive chunks of a test file being prepared (docs/iometer-reference.md#prepare), from
// offset 0 of a file of `file_bytes`: the reduction's data for a target of that size when
// `reduction` is set (file_bytes 0, "until the file system is full", makes every unit distinct),
// else IOmeter's pattern as the other make_prepare_filler. Errors: an invalid reduction.
[[nodiscard]] Result<std::function<void(std::span<std::byte>)>> make_prepare_filler(
    access_specs::DataPattern pattern, const std::optional<access_specs::DataReduction>& reduction,
    std::uint64_t seed, std::uint64_t content_key, std::uint64_t file_bytes);

}  // namespace iomark::workload
