// `--verify`: the header every written verify block carries, and the check of a block read.
//
// A verify block is one unit of the target (4 KiB, or the sector size when a spec's sizes or
// alignment are not multiples of 4 KiB: verify_block_bytes). Every write stamps each of its
// units, after the data pattern filled the buffer, with a 32-byte header (little endian):
//
//   0  u32 magic "IOMV"      4  u32 crc32c of bytes 8..end of the unit (header rest + payload)
//   8  u32 target id        12  u32 write generation of this unit
//  16  u64 byte offset      24  u64 time of the write (CLOCK_MONOTONIC ns, for humans)
//
// The rest of the unit is the pattern's bytes, untouched, so a compress:R pattern keeps its
// ratio up to 32 incompressible bytes per unit (0.8 % of 4 KiB; compress:2 becomes ~1.97:1).
// Because the header names its offset and generation, every unit is unique: a dedupe pattern
// does not reduce under --verify (see docs/verify.md).
//
// Pure computation: no I/O, no clock, no allocation; everything is noexcept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"
#include "iomark/common/verify_report.hpp"

namespace iomark::workload {

inline constexpr std::uint32_t kVerifyHeaderBytes = 32;
inline constexpr std::uint32_t kVerifyMagic = 0x564d4f49;  // "IOMV" in memory
inline constexpr std::uint32_t kPreferredVerifyBlockBytes = 4096;

// CRC-32C (Castagnoli), as iSCSI, ext4 and fio's crc32c compute it: crc32c("123456789") is
// 0xE3069283. Uses SSE4.2's crc32 instruction when the CPU has it (checked once at run time),
// else a table. `crc32c_portable` is the table version, for tests.
[[nodiscard]] std::uint32_t crc32c(std::span<const std::byte> data) noexcept;
[[nodiscard]] std::uint32_t crc32c_portable(std::span<const std::byte> data) noexcept;

// The verify block size for `spec` on a target with `sector_size_bytes`: 4 KiB when every
// transfer and every alignment of the spec is a multiple of 4 KiB (and the sector is at most
// that), else the sector size. Errors (invalid_argument): a transfer or reply that is not a
// multiple of the sector size, which no block header could cover.
[[nodiscard]] Result<std::uint32_t> verify_block_bytes(const access_specs::AccessSpec& spec,
                                                       std::uint32_t sector_size_bytes);

struct BlockStamp {
  std::uint32_t target_id{};
  std::uint64_t offset_bytes{};
  std::uint32_t generation{};
  std::uint64_t time_ns{};
};

// Writes the header into the first kVerifyHeaderBytes of `block` and the checksum over the
// rest. Precondition: block.size() > kVerifyHeaderBytes.
void stamp_block(std::span<std::byte> block, const BlockStamp& stamp) noexcept;

// What the journal expects of a block: written with `generation` (> 0) at `offset_bytes` of
// the target `target_id`.
struct BlockExpectation {
  std::uint32_t target_id{};
  std::uint64_t offset_bytes{};
  std::uint32_t generation{};
};

// The verdict on a block read against what the journal expects: nullopt when it is good,
// else the finding. A block of a newer generation than expected is good: only a journal that
// lost its last updates in a host crash can lag the disk, and a device cannot invent an
// intact block of a future generation. A header whose magic is more than 2 bits from ours is
// "no header" (a lost write over the preparation fill: stale, found generation 0); a magic at
// most 2 bits off is a corrupted header.
[[nodiscard]] std::optional<VerifyFinding> check_block(std::span<const std::byte> block,
                                                       const BlockExpectation& expected) noexcept;

}  // namespace iomark::workload
