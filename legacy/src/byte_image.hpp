// Little-endian fields at explicit offsets of a block: the only place that turns legacy
// bytes into numbers and back. Callers check offsets against their structure's layout;
// these helpers assert nothing and assume `offset + width <= block.size()`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::legacy::image {

[[nodiscard]] std::uint16_t get_u16(std::span<const std::byte> block, std::size_t offset) noexcept;
[[nodiscard]] std::uint32_t get_u32(std::span<const std::byte> block, std::size_t offset) noexcept;
[[nodiscard]] std::int32_t get_i32(std::span<const std::byte> block, std::size_t offset) noexcept;
[[nodiscard]] std::uint64_t get_u64(std::span<const std::byte> block, std::size_t offset) noexcept;
[[nodiscard]] std::int64_t get_i64(std::span<const std::byte> block, std::size_t offset) noexcept;
[[nodiscard]] double get_f64(std::span<const std::byte> block, std::size_t offset) noexcept;

void put_u16(std::span<std::byte> block, std::size_t offset, std::uint16_t value) noexcept;
void put_u32(std::span<std::byte> block, std::size_t offset, std::uint32_t value) noexcept;
void put_i32(std::span<std::byte> block, std::size_t offset, std::int32_t value) noexcept;
void put_u64(std::span<std::byte> block, std::size_t offset, std::uint64_t value) noexcept;
void put_i64(std::span<std::byte> block, std::size_t offset, std::int64_t value) noexcept;
void put_f64(std::span<std::byte> block, std::size_t offset, double value) noexcept;

// A fixed `char[capacity]` field: the text up to its first NUL. Errors (parse_error, in
// field `field`): no NUL within the capacity, or a control character before it.
[[nodiscard]] Result<std::string> get_string(std::span<const std::byte> block, std::size_t offset,
                                             std::size_t capacity, std::string_view field);
// Writes `text` and a NUL, zero-filling the rest. Errors (invalid_argument, in field `field`):
// text of `capacity` bytes or more, or holding a NUL.
[[nodiscard]] Result<void> put_string(std::span<std::byte> block, std::size_t offset, std::size_t capacity,
                                      std::string_view text, std::string_view field);

// Checks that `block` is one whole Data_Message; parse_error naming `what` otherwise.
[[nodiscard]] Result<void> check_whole_block(std::span<const std::byte> block, std::string_view what);

}  // namespace iomark::legacy::image
