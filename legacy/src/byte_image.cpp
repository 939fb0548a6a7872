#include "byte_image.hpp"

#include <bit>
#include <cstring>

#include "iomark/legacy/wire.hpp"

namespace iomark::legacy::image {

namespace {

template <typename Unsigned>
Unsigned get_unsigned(std::span<const std::byte> block, std::size_t offset) noexcept {
  Unsigned value = 0;
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i) {
    value |= static_cast<Unsigned>(static_cast<Unsigned>(block[offset + i]) << (8 * i));
  }
  return value;
}

template <typename Unsigned>
void put_unsigned(std::span<std::byte> block, std::size_t offset, Unsigned value) noexcept {
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i) {
    block[offset + i] = static_cast<std::byte>(value >> (8 * i));
  }
}

}  // namespace

std::uint16_t get_u16(std::span<const std::byte> block, std::size_t offset) noexcept {
  return get_unsigned<std::uint16_t>(block, offset);
}
std::uint32_t get_u32(std::span<const std::byte> block, std::size_t offset) noexcept {
  return get_unsigned<std::uint32_t>(block, offset);
}
std::int32_t get_i32(std::span<const std::byte> block, std::size_t offset) noexcept {
  return std::bit_cast<std::int32_t>(get_u32(block, offset));
}
std::uint64_t get_u64(std::span<const std::byte> block, std::size_t offset) noexcept {
  return get_unsigned<std::uint64_t>(block, offset);
}
std::int64_t get_i64(std::span<const std::byte> block, std::size_t offset) noexcept {
  return std::bit_cast<std::int64_t>(get_u64(block, offset));
}
double get_f64(std::span<const std::byte> block, std::size_t offset) noexcept {
  return std::bit_cast<double>(get_u64(block, offset));
}

void put_u16(std::span<std::byte> block, std::size_t offset, std::uint16_t value) noexcept {
  put_unsigned(block, offset, value);
}
void put_u32(std::span<std::byte> block, std::size_t offset, std::uint32_t value) noexcept {
  put_unsigned(block, offset, value);
}
void put_i32(std::span<std::byte> block, std::size_t offset, std::int32_t value) noexcept {
  put_u32(block, offset, std::bit_cast<std::uint32_t>(value));
}
void put_u64(std::span<std::byte> block, std::size_t offset, std::uint64_t value) noexcept {
  put_unsigned(block, offset, value);
}
void put_i64(std::span<std::byte> block, std::size_t offset, std::int64_t value) noexcept {
  put_u64(block, offset, std::bit_cast<std::uint64_t>(value));
}
void put_f64(std::span<std::byte> block, std::size_t offset, double value) noexcept {
  put_u64(block, offset, std::bit_cast<std::uint64_t>(value));
}

Result<std::string> get_string(std::span<const std::byte> block, std::size_t offset, std::size_t capacity,
                               std::string_view field) {
  const auto bytes = block.subspan(offset, capacity);
  std::string text;
  for (const auto b : bytes) {
    const auto c = static_cast<unsigned char>(b);
    if (c == 0) return text;
    if (c < 0x20 || c == 0x7f) {
      return fail(Error(ErrorCode::parse_error, "holds control character " + std::to_string(c))
                      .in_field(std::string(field)));
    }
    text += static_cast<char>(c);
  }
  return fail(Error(ErrorCode::parse_error, "is not NUL-terminated within its " + std::to_string(capacity) +
                                                " bytes")
                  .in_field(std::string(field)));
}

Result<void> put_string(std::span<std::byte> block, std::size_t offset, std::size_t capacity,
                        std::string_view text, std::string_view field) {
  if (text.size() >= capacity) {
    return fail(Error(ErrorCode::invalid_argument, "'" + std::string(text) + "' is " +
                                                       std::to_string(text.size()) + " bytes, at most " +
                                                       std::to_string(capacity - 1) + " fit")
                    .in_field(std::string(field)));
  }
  if (text.find('\0') != std::string_view::npos) {
    return fail(Error(ErrorCode::invalid_argument, "holds a NUL byte").in_field(std::string(field)));
  }
  auto bytes = block.subspan(offset, capacity);
  std::memset(bytes.data(), 0, bytes.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return {};
}

Result<void> check_whole_block(std::span<const std::byte> block, std::string_view what) {
  if (block.size() != kDataMessageBytes) {
    return fail(Error(ErrorCode::parse_error, std::string(what) + " block is " + std::to_string(block.size()) +
                                                  " bytes, a Data_Message is " +
                                                  std::to_string(kDataMessageBytes))
                    .in_field("Data_Message"));
  }
  return {};
}

}  // namespace iomark::legacy::image
