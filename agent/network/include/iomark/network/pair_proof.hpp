// What a network client sends first on every connection, so that the server accepts only the
// peer the controller named (besides its address): 8 bytes "IOMKNET1", then
//
//   HMAC-SHA256(pair secret, "iomark.v1 network pair" || 0x00 || client address || 0x00 ||
//               server port, 2 bytes big-endian)
//
// The pair secret is fresh per run and pair, made by the controller and sent to both ends
// over their authenticated control connections (protocol::NetworkEndpoint); it never goes on
// the data connection. Binding the client address and the server port makes a proof useless
// from another address or for another pair. What it does not stop: a host that can both
// record this run's data connection and forge the client's source address may replay the
// proof within the same run (the data is benchmark filler; it is neither signed nor secret).
//
// Pure: no sockets.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "iomark/common/result.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::network {

inline constexpr std::size_t kPreambleBytes = 8 + protocol::kProofBytes;
using Preamble = std::array<std::byte, kPreambleBytes>;

// Errors: internal when OpenSSL cannot compute the HMAC.
[[nodiscard]] Result<Preamble> make_preamble(const protocol::PairSecret& secret, std::string_view client_address,
                                             std::uint16_t server_port);

// True when `received` is the preamble `expected` (compared in constant time).
[[nodiscard]] bool preamble_matches(std::span<const std::byte> received, const Preamble& expected) noexcept;

}  // namespace iomark::network
