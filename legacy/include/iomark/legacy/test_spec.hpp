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
// Reads as Dynamo 1.1.0 does (docs/iometer-gui-messages.md): lines in order until their %
// of size makes 100 (a line of 0 % is skipped unread, a share past 100 is cut to what is
// left), and nothing after that, so whatever ends the list (-1, a zero-filled line,
// garbage) is never read; -1 in line 0 is the idle spec (no lines). default_assignment is
// ignored (none) outside 0..3. Errors: parse_error naming the field
// ("Test_Spec.access[3].reads") and the value for a block that is not whole, a name without
// NUL, an -1 or a value outside its field descriptor's range in a line that is read, or
// lines that never make 100 %. A decoded non-idle spec totals exactly 100.
[[nodiscard]] Result<access_specs::AccessSpec> decode_test_spec(std::span<const std::byte> block);

}  // namespace iomark::legacy
