#include "iomark/workload/verify_block.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <string>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace iomark::workload {
namespace {

constexpr std::uint32_t kCastagnoliReflected = 0x82F63B78;
constexpr std::size_t kCrcFrom = 8;  // the checksum covers the header after itself, and the payload

constexpr std::array<std::uint32_t, 256> make_table() noexcept {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1U) != 0 ? kCastagnoliReflected : 0U);
    table[i] = crc;
  }
  return table;
}

constexpr auto kTable = make_table();

std::uint32_t crc32c_table(std::uint32_t crc, const std::byte* data, std::size_t size) noexcept {
  for (std::size_t i = 0; i < size; ++i) {
    crc = kTable[(crc ^ std::to_integer<std::uint32_t>(data[i])) & 0xFFU] ^ (crc >> 8);
  }
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::uint32_t crc, const std::byte* data,
                                                             std::size_t size) noexcept {
  std::uint64_t wide = crc;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, data + i, sizeof word);
    wide = _mm_crc32_u64(wide, word);
  }
  auto narrow = static_cast<std::uint32_t>(wide);
  for (; i < size; ++i) narrow = _mm_crc32_u8(narrow, std::to_integer<std::uint8_t>(data[i]));
  return narrow;
}

bool cpu_has_sse42() noexcept {
  static const bool has = __builtin_cpu_supports("sse4.2") != 0;
  return has;
}
#endif

std::uint32_t load32(const std::byte* at) noexcept {
  std::uint32_t value = 0;
  std::memcpy(&value, at, sizeof value);
  return value;
}

std::uint64_t load64(const std::byte* at) noexcept {
  std::uint64_t value = 0;
  std::memcpy(&value, at, sizeof value);
  return value;
}

template <typename T>
void store(std::byte* at, T value) noexcept {
  std::memcpy(at, &value, sizeof value);
}

bool multiple_of(std::uint64_t value, std::uint64_t unit) noexcept { return value % unit == 0; }

}  // namespace

std::uint32_t crc32c_portable(std::span<const std::byte> data) noexcept {
  return ~crc32c_table(~0U, data.data(), data.size());
}

std::uint32_t crc32c(std::span<const std::byte> data) noexcept {
#if defined(__x86_64__)
  if (cpu_has_sse42()) return ~crc32c_sse42(~0U, data.data(), data.size());
#endif
  return crc32c_portable(data);
}

Result<std::uint32_t> verify_block_bytes(const access_specs::AccessSpec& spec, std::uint32_t sector_size_bytes) {
  bool preferred_fits = sector_size_bytes <= kPreferredVerifyBlockBytes;
  for (std::size_t i = 0; i < spec.lines.size(); ++i) {
    const auto& line = spec.lines[i];
    for (const std::uint32_t size : {line.size_bytes, line.reply_bytes}) {
      if (size == 0) continue;
      if (!multiple_of(size, sector_size_bytes) || size <= kVerifyHeaderBytes) {
        return fail(Error(ErrorCode::invalid_argument,
                          "line " + std::to_string(i + 1) + ": --verify needs transfers that are whole sectors (" +
                              std::to_string(size) + " bytes is not a multiple of " +
                              std::to_string(sector_size_bytes) + ")")
                        .in_field("verify"));
      }
      preferred_fits = preferred_fits && multiple_of(size, kPreferredVerifyBlockBytes);
    }
    // Alignment 0 means the sector size, which places I/Os inside a 4 KiB block.
    preferred_fits = preferred_fits && line.align_bytes != 0 && multiple_of(line.align_bytes, kPreferredVerifyBlockBytes);
  }
  return preferred_fits ? kPreferredVerifyBlockBytes : sector_size_bytes;
}

void stamp_block(std::span<std::byte> block, const BlockStamp& stamp) noexcept {
  std::byte* at = block.data();
  store(at + 0, kVerifyMagic);
  store(at + 8, stamp.target_id);
  store(at + 12, stamp.generation);
  store(at + 16, stamp.offset_bytes);
  store(at + 24, stamp.time_ns);
  store(at + 4, crc32c(block.subspan(kCrcFrom)));
}

std::optional<VerifyFinding> check_block(std::span<const std::byte> block, const BlockExpectation& expected) noexcept {
  const std::byte* at = block.data();
  VerifyFinding finding;
  finding.offset_bytes = expected.offset_bytes;
  finding.expected_generation = expected.generation;
  const auto magic = load32(at);
  if (magic != kVerifyMagic) {
    finding.failure = std::popcount(magic ^ kVerifyMagic) <= 2 ? VerifyFailure::corrupted : VerifyFailure::stale;
    return finding;
  }
  finding.found_generation = load32(at + 12);
  finding.found_offset_bytes = load64(at + 16);
  finding.expected_checksum = load32(at + 4);
  finding.found_checksum = crc32c(block.subspan(kCrcFrom));
  if (finding.expected_checksum != finding.found_checksum) {
    finding.failure = VerifyFailure::corrupted;
    return finding;
  }
  finding.expected_checksum = finding.found_checksum = 0;
  if (finding.found_offset_bytes != expected.offset_bytes || load32(at + 8) != expected.target_id) {
    finding.failure = VerifyFailure::misdirected;
    return finding;
  }
  if (finding.found_generation < expected.generation) {
    finding.failure = VerifyFailure::stale;
    return finding;
  }
  return std::nullopt;
}

}  // namespace iomark::workload
