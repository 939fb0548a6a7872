// IOmeter 1.1.0's wire (docs/iometer-reference.md#wire): the two block sizes, message purposes,
// the version code and the LOGIN check.
//
// The legacy stream has no framing: an 8-byte Message or a whole 888,840-byte Data_Message,
// the kind implied by the protocol state. Everything is little-endian with pack(1); this
// library reads and writes each field at its explicit offset, never by casting a struct.
// All functions are pure and thread-safe; they never allocate more than one block.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"

namespace iomark::legacy {

inline constexpr std::size_t kMessageBytes = 8;
inline constexpr std::size_t kDataMessageBytes = 888'840;
// Data_Message: int32 size @0, int32 count @4, union @8.
inline constexpr std::size_t kDataSizeOffset = 0;
inline constexpr std::size_t kDataCountOffset = 4;
inline constexpr std::size_t kDataUnionOffset = 8;

// Hard limits baked into the 1.1.0 structure sizes.
inline constexpr std::size_t kMaxTargets = 2048;
inline constexpr std::size_t kMaxSpecLines = 100;
inline constexpr std::size_t kMaxCpus = 64;
inline constexpr std::size_t kMaxNics = 64;
inline constexpr std::size_t kMaxWorkers = 128;

// The port an IOmeter GUI listens on for Dynamo logins.
inline constexpr std::uint16_t kDefaultLoginPort = 1066;

enum class Purpose : std::int32_t {
  login = 0x10000001,
  add_workers = 0x10000002,
  report_targets = 0x10000003,
  start = 0x10000004,
  begin_io = 0x10000005,
  record_off = 0x10000006,
  stop = 0x10000007,
  report_results = 0x10000008,
  report_update = 0x10000009,
  stop_prepare = 0x1000000A,
  set_targets = 0x1000000B,
  set_access = 0x1000000C,
  login_ok = 0x1000000F,
  wrong_version = 0x10000010,
  prep_disks = 0x00100001,
  ready = 0x01000001,
  record_on = 0x01000002,
  reset = 0x01000003,
  exit = 0x01000004,
};

// The `data` of a command naming who it is for: a worker index >= 0, or one of these.
inline constexpr std::int32_t kAllWorkers = -4;
inline constexpr std::int32_t kManager = -8;
// LOGIN_OK is a Message with purpose LOGIN and this data.
inline constexpr std::int32_t kLoginOkData = 0x1000000F;

// "LOGIN", "SET_ACCESS", ...; empty for a value that is not a 1.1.0 purpose.
[[nodiscard]] std::string_view to_string(Purpose purpose) noexcept;
[[nodiscard]] bool is_known(Purpose purpose) noexcept;

struct Message {
  Purpose purpose{};
  std::int32_t data{};
  friend bool operator==(const Message&, const Message&) = default;
};

[[nodiscard]] std::array<std::byte, kMessageBytes> encode_message(const Message& message) noexcept;
// Any 8 bytes decode (the purpose may be unknown: check is_known); another length is a
// parse_error.
[[nodiscard]] Result<Message> decode_message(std::span<const std::byte> bytes);

// A whole Data_Message image (always kDataMessageBytes long).
using DataBlock = std::vector<std::byte>;

// A zeroed block. Dynamo and the GUI send the uninitialised remainder of the union; iomark
// sends zeros so its blocks are reproducible.
[[nodiscard]] DataBlock make_data_block();
// The two header fields. Only the login block's `size` and the target lists' `count` carry
// meaning (spec §7.6); decoders check them where they do.
[[nodiscard]] std::int32_t data_block_size_field(std::span<const std::byte> block) noexcept;
[[nodiscard]] std::int32_t data_block_count_field(std::span<const std::byte> block) noexcept;

// Version code of a "major.minor.subminor" string: (major << 24) | (minor << 8) | subminor.
// "1.1.0" -> 0x01000100. Errors: parse_error for another form or a part above 255.
[[nodiscard]] Result<std::int32_t> version_code(std::string_view version);
inline constexpr std::int32_t kVersionCode_1_1_0 = 0x01000100;
inline constexpr std::string_view kVersion_1_1_0 = "1.1.0";

// Checks a LOGIN message as the 1.1.0 GUI does: purpose LOGIN, and major and minor of the
// version code equal to 1.1 (subminor ignored). Errors: parse_error naming the purpose for
// another message; unsupported naming the version for a wrong one (the GUI answers
// WRONG_VERSION then).
[[nodiscard]] Result<void> check_login(const Message& message);

}  // namespace iomark::legacy
