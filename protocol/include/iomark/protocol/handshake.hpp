// The Hello exchange: which protocol version and which authentication a session uses.
// Pure; both sides call agree() with the same two Hellos (swapped) and reach the same
// verdict, so both can print the same readable error.
#pragma once

#include <cstdint>
#include <string>

#include <tl/expected.hpp>

#include "iomark/protocol/messages.hpp"

namespace iomark::protocol {

// The protocol versions this build speaks. Version 1 is iomark.v1.
inline constexpr std::uint32_t kMinProtocolVersion = 1;
inline constexpr std::uint32_t kMaxProtocolVersion = 1;

// Our Hello with this build's version range.
[[nodiscard]] Hello make_hello(Role role, std::string build, std::string name, std::string address,
                               AuthMode auth_mode);

struct Agreement {
  std::uint32_t version{};  // the highest version both speak
  AuthMode auth_mode{AuthMode::pre_shared_key};
  friend bool operator==(const Agreement&, const Agreement&) = default;
};

// Checks the peer's Hello against ours. The ErrorReport is ready to send to the peer
// before closing:
// - protocol_violation: the peer has our role (two agents, or two controllers);
// - version_mismatch (code unsupported): the version ranges do not overlap; the message
//   names both sides' builds and ranges, e.g. "protocol version mismatch: this controller
//   (iomark 0.1.0) speaks 1..1, agent 'db1' (iomark 0.3.0) speaks 2..3";
// - authentication_failed (code validation_error): one side asks for a key and the other
//   runs with --insecure; the message says which.
[[nodiscard]] tl::expected<Agreement, ErrorReport> agree(const Hello& ours, const Hello& theirs);

}  // namespace iomark::protocol
