// Test_Spec (docs/iometer-reference.md#wire-structs, 3,332 bytes at the union): the access spec
// SET_ACCESS carries, as iomark's access_specs::AccessSpec.
//
// Access_Spec's wire order (of_size, reads, random, delay, burst, align, reply, size) is
// not the .icf order (size first); the layout constants below pin it. An idle spec (no
// lines) is sent as access[0].of_size = -1.
#pragma once

#include <cstdint>
#include <span>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"
#include "iomark/legacy/wire.hpp"

namespace iomark::legacy {

namespace test_spec_layout {
inline constexpr std::size_t kName = 0;  // char[128]
inline constexpr std::size_t kNameBytes = 128;
inline constexpr std::size_t kDefaultAssignment = 128;  // int32
inline constexpr std::size_t kAccess = 132;             // Access_Spec[100]
inline constexpr std::size_t kBytes = 3332;
}  // namespace test_spec_layout

namespace access_spec_layout {
inline constexpr std::size_t kOfSize = 0;   // int32, -1 ends the list
inline constexpr std::size_t kReads = 4;    // int32 %
inline constexpr std::size_t kRandom = 8;   // int32 %
inline constexpr std::size_t kDelay = 12;   // int32 ms
inline constexpr std::size_t kBurst = 16;   // int32
inline constexpr std::size_t kAlign = 20;   // uint32 bytes
inline constexpr std::size_t kReply = 24;   // uint32 bytes
inline constexpr std::size_t kSize = 28;    // uint32 bytes
inline constexpr std::size_t kBytes = 32;
}  // namespace access_spec_layout

// Errors: invalid_argument for more than kMaxSpecLines lines, a name of 128 bytes or more, or
// a signed field (of_size, reads, random, delay, burst) above INT32_MAX.
[[nodiscard]] Result<DataBlock> encode_test_spec(const access_specs::AccessSpec& spec);
// Reads lines up to the first of_size = -1 (or all 100). Errors: parse_error naming the
// field ("Test_Spec.access[3].reads") for a block that is not whole, a name without NUL, a
// default assignment outside 0..3, a negative field or a percentage above 100. The result
// is not validate()d: an idle spec has no lines, and % of size need not total 100 here.
[[nodiscard]] Result<access_specs::AccessSpec> decode_test_spec(std::span<const std::byte> block);

}  // namespace iomark::legacy
