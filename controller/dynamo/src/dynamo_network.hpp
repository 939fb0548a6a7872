// Network targets on a Dynamo 1.1.0 (docs/iometer-reference.md#wire-network-pairs): its TCP NICs as
// iomark's interfaces, and each end of an iomark pair (protocol::NetworkEndpoint) as the
// Target_Spec IOmeter's GUI sends that end's worker.
//
// Pure functions over value types; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::controller::dynamo {

// REPORT_TARGETS' second list as interfaces. Dynamo names a NIC by its IPv4 address and
// tells no netmask, so loopback gets 127.0.0.0/8 and any other NIC is known to hold its own
// address only (/32): a pair across hosts names the server's "Local network interface".
[[nodiscard]] std::vector<protocol::NetworkInterface> interfaces_of(std::span<const legacy::TargetSpec> tcp_nics);

// The target of one end, without the per-target settings (queue depth, seed, ...). The server
// gets its partner as a TCPClient target named by the address Dynamo binds (its own), with
// the client's address as remote; the client gets a TCPServer target, the names swapped,
// with `server_port` (0 until the server's SET_TARGETS echo has told it).
[[nodiscard]] legacy::TargetSpec network_target(const protocol::NetworkEndpoint& end, std::uint16_t server_port);

// The port a server end listens on, as the SET_TARGETS echo of its worker says (target 0:
// a network worker has one target). Errors: io_error when the echo does not decode or is not
// one TCP target, or the port is 0 or 65535 (Dynamo's mark of a socket it could not bind).
[[nodiscard]] Result<std::uint16_t> listening_port(std::span<const std::byte> echo);

}  // namespace iomark::controller::dynamo
