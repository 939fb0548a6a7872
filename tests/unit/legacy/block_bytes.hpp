// Reads and writes little-endian fields of a legacy block in tests, independently of the
// library's own byte_image helpers, so a test pins the layout rather than echoing the code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace iomark::legacy::test {

inline std::uint64_t read_le(std::span<const std::byte> block, std::size_t offset, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value |= std::to_integer<std::uint64_t>(block[offset + i]) << (8 * i);
  return value;
}

inline void write_le(std::span<std::byte> block, std::size_t offset, std::size_t width, std::uint64_t value) {
  for (std::size_t i = 0; i < width; ++i) block[offset + i] = static_cast<std::byte>(value >> (8 * i));
}

inline std::int32_t read_i32(std::span<const std::byte> block, std::size_t offset) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(read_le(block, offset, 4)));
}

inline double read_f64(std::span<const std::byte> block, std::size_t offset) {
  const auto bits = read_le(block, offset, 8);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline std::string read_text(std::span<const std::byte> block, std::size_t offset) {
  return std::string(reinterpret_cast<const char*>(block.data() + offset));
}

}  // namespace iomark::legacy::test
