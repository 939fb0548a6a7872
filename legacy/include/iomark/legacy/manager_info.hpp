// Manager_Info (docs/iometer-reference.md#wire-structs, 350 bytes at the union): what a Dynamo says
// about itself in the data block that follows its LOGIN message.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/legacy/wire.hpp"

namespace iomark::legacy {

namespace manager_info_layout {
inline constexpr std::size_t kVersion = 0;         // char[80]
inline constexpr std::size_t kVersionBytes = 80;
inline constexpr std::size_t kManagerName = 80;    // char names[0][128]
inline constexpr std::size_t kNetworkAddress = 208;  // char names[1][128]
inline constexpr std::size_t kNameBytes = 128;
inline constexpr std::size_t kPortNumber = 336;    // uint16
inline constexpr std::size_t kProcessors = 338;    // int32
inline constexpr std::size_t kTimerResolution = 342;  // double, ticks per second
inline constexpr std::size_t kBytes = 350;
}  // namespace manager_info_layout

struct ManagerInfo {
  std::string version{kVersion_1_1_0};
  std::string manager_name;     // -n, or the host name
  std::string network_address;  // -m; empty: connect back to the GUI's own host
  std::uint16_t command_port{};  // where the GUI connects back
  std::uint32_t processors{1};
  double timer_resolution_hz{};  // ticks per second of every tick counter this manager sends
  friend bool operator==(const ManagerInfo&, const ManagerInfo&) = default;
};

// Upper bounds a decoder accepts: more CPUs than any host has, a tick rate above 1 THz.
inline constexpr std::uint32_t kMaxProcessors = 65536;
inline constexpr double kMaxTimerResolutionHz = 1e12;

// The login block: `size` = kDataMessageBytes, the structure at the union.
// Errors: invalid_argument naming the field (a string too long, zero processors, a timer
// resolution that is not a positive finite number up to kMaxTimerResolutionHz).
[[nodiscard]] Result<DataBlock> encode_manager_info(const ManagerInfo& info);
// Errors: parse_error for a block that is not whole, a `size` field other than
// kDataMessageBytes ("check structure packing"), a string without NUL, a processor count
// outside 1..kMaxProcessors or a timer resolution outside (0, kMaxTimerResolutionHz]; the
// field names the structure member.
[[nodiscard]] Result<ManagerInfo> decode_manager_info(std::span<const std::byte> block);

}  // namespace iomark::legacy
