#include "iomark/workload/region.hpp"

#include <bit>
#include <string>

namespace iomark::workload {

Result<Region> make_region(TargetGeometry geometry, std::uint64_t starting_sector, std::uint64_t maximum_size_sectors) {
  if (geometry.sector_size_bytes == 0) return fail(ErrorCode::invalid_argument, "target sector size is 0");
  if (geometry.size_bytes == 0) return fail(ErrorCode::invalid_argument, "target is empty (size 0)");
  const std::uint64_t sector = geometry.sector_size_bytes;
  // Compared in sectors (n * sector < size  <=>  n <= (size - 1) / sector) so nothing overflows.
  const std::uint64_t last_sector = (geometry.size_bytes - 1) / sector;
  if (starting_sector > last_sector) {
    return fail(Error(ErrorCode::invalid_argument,
                      "starting sector " + std::to_string(starting_sector) + " is at or past the end of the target (" +
                          std::to_string(geometry.size_bytes / sector) + " sectors of " + std::to_string(sector) +
                          " bytes)")
                    .in_field("Starting Disk Sector"));
  }
  const std::uint64_t start = starting_sector * sector;
  std::uint64_t length = geometry.size_bytes;
  if (maximum_size_sectors != 0 && maximum_size_sectors <= last_sector) {
    length = maximum_size_sectors * sector;
  }
  if (length > geometry.size_bytes - start) length = geometry.size_bytes - start;
  return Region{start, start + length};
}

Alignment Alignment::of(std::uint32_t align_bytes, std::uint32_t sector_size_bytes) noexcept {
  const std::uint64_t unit = align_bytes != 0 ? align_bytes : sector_size_bytes;
  return Alignment(unit, std::has_single_bit(unit) ? ~(unit - 1) : 0);
}

}  // namespace iomark::workload
