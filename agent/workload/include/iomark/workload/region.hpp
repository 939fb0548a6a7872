// Where a worker's I/Os may land on one target: the accessible region, the alignment rule and
// the wrap rule (docs/iometer-reference.md#region). Offsets are absolute byte offsets of the device
// or file.
#pragma once

#include <cstdint>

#include "iomark/common/result.hpp"

namespace iomark::workload {

// What the workload needs to know about a target. `sector_size_bytes` is the unit of
// "Starting Disk Sector" and "Maximum Disk Size" and the default alignment: the logical block
// size for block devices; for test files whatever agent/targets reports (see
// iomark/targets/target.hpp for that choice).
struct TargetGeometry {
  std::uint64_t size_bytes{};
  std::uint32_t sector_size_bytes{512};
};

// The half-open byte range [start_bytes, end_bytes) a worker accesses on one target.
struct Region {
  std::uint64_t start_bytes{};
  std::uint64_t end_bytes{};

  [[nodiscard]] std::uint64_t length_bytes() const noexcept { return end_bytes - start_bytes; }
  friend bool operator==(const Region&, const Region&) = default;
};

// start = starting_sector * sector size; length = maximum_size_sectors * sector size when that
// is non-zero and smaller than the target, else the whole target; the length is then cut so
// that the region ends at the end of the target.
// Errors (invalid_argument): sector size 0, an empty target, or a start at or past its end.
[[nodiscard]] Result<Region> make_region(TargetGeometry geometry, std::uint64_t starting_sector,
                                         std::uint64_t maximum_size_sectors);

// An alignment unit: a line's `align`, or the target's sector size when `align` is 0. Offsets
// are rounded up to a multiple of it: with a bit mask for powers of two (Dynamo's fast path),
// with a remainder otherwise. Both give the same offsets.
class Alignment {
 public:
  // Precondition: align_bytes != 0 || sector_size_bytes != 0.
  [[nodiscard]] static Alignment of(std::uint32_t align_bytes, std::uint32_t sector_size_bytes) noexcept;

  [[nodiscard]] std::uint64_t round_up(std::uint64_t offset) const noexcept {
    if (mask_ != 0) return (offset + unit_ - 1) & mask_;
    const std::uint64_t remainder = offset % unit_;
    return remainder == 0 ? offset : offset + (unit_ - remainder);
  }
  [[nodiscard]] std::uint64_t unit_bytes() const noexcept { return unit_; }
  [[nodiscard]] bool is_power_of_two() const noexcept { return mask_ != 0; }

 private:
  Alignment(std::uint64_t unit, std::uint64_t mask) noexcept : unit_(unit), mask_(mask) {}

  std::uint64_t unit_;
  std::uint64_t mask_;  // ~(unit - 1) for powers of two, 0 otherwise
};

// Places one I/O of `size_bytes` whose unaligned offset is `candidate` (start + TRand(length)
// for random I/O, previous offset + previous size for sequential I/O): rounds it up to the
// alignment and, when the I/O would then pass the end of the region, wraps to the start,
// rounded up to the same alignment.
//
// Deliberate fix (docs/iometer-reference.md#fix-wrap-alignment): Dynamo re-aligned the wrapped
// start with the
// *sector* mask whenever the line's alignment was a power of two, so a region starting off the
// user alignment produced one misaligned I/O per wrap. We always use the line's alignment.
// Precondition: fits(size_bytes, alignment, region).
[[nodiscard]] inline std::uint64_t place_io(std::uint64_t candidate, std::uint32_t size_bytes,
                                            const Alignment& alignment, const Region& region) noexcept {
  std::uint64_t offset = alignment.round_up(candidate);
  if (offset + size_bytes > region.end_bytes) offset = alignment.round_up(region.start_bytes);
  return offset;
}

// Whether at least one aligned I/O of `size_bytes` fits: what place_io relies on.
[[nodiscard]] inline bool fits(std::uint32_t size_bytes, const Alignment& alignment, const Region& region) noexcept {
  const std::uint64_t first = alignment.round_up(region.start_bytes);
  return first <= region.end_bytes && region.end_bytes - first >= size_bytes;
}

}  // namespace iomark::workload
