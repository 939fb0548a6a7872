// Which protocol a peer speaks, from the first bytes it sent: one listening port serves
// iomark agents (plain or TLS) and, where allowed, IOmeter Dynamo 1.1.0 logins.
//
// Every protocol that may log in on that port speaks first, and each starts with a fixed
// pattern, distinct from the first byte on:
// - an iomark frame: "IOMK" (protocol/frame.hpp), the dialler's Hello;
// - TLS: a handshake record, 0x16 0x03 (the ClientHello's record header);
// - Dynamo 1.1.0: its LOGIN Message, purpose 0x10000001 as a little-endian int32
//   (docs/iometer-reference.md#wire-handshake), i.e. 01 00 00 10, then the version code.
// Pure; no I/O. The listener peeks (the bytes stay in the socket) and calls this after every
// arrival, so the bytes may come split anywhere, even one at a time.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace iomark::transport {

enum class FirstBytes {
  need_more,     // consistent with a known protocol, too short to tell
  iomark,        // an iomark frame
  tls,           // a TLS handshake record
  dynamo_login,  // an IOmeter Dynamo 1.1.0 LOGIN
  unknown,       // none of them: not an iomark peer (the iomark session refuses it as "bad magic")
};

// More bytes than this never change the answer.
inline constexpr std::size_t kFirstBytesDecisive = 4;

[[nodiscard]] FirstBytes classify_first_bytes(std::span<const std::byte> prefix) noexcept;
[[nodiscard]] std::string_view to_string(FirstBytes kind) noexcept;
// "01 00 00 10": the bytes in hex, for log lines naming what a peer sent.
[[nodiscard]] std::string hex_bytes(std::span<const std::byte> bytes);

}  // namespace iomark::transport
