// Network addresses as the command lines write them: "db1", "db1:1066", "10.0.0.5:1066",
// "[::1]:1066", and for listening "[ADDR:]PORT".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::transport {

struct HostPort {
  std::string host;  // a name or an IP literal, without brackets ("::1", not "[::1]")
  std::uint16_t port{};
  friend bool operator==(const HostPort&, const HostPort&) = default;
};

// Where to dial: "HOST", "HOST:PORT", "[IPV6]", "[IPV6]:PORT", or a bare IPv6 literal
// ("::1", which has no port: brackets are needed to add one). A missing port is
// `default_port`. Errors: invalid_argument for an empty host, a port that is not a number
// in 1..65535, or unbalanced brackets.
[[nodiscard]] Result<HostPort> parse_host_port(std::string_view text, std::uint16_t default_port);

// Where to listen (--listen [ADDR:]PORT): "PORT", "ADDR:PORT", "[IPV6]:PORT". A bare port
// listens on `default_host` (e.g. "0.0.0.0", or "::" for IPv4 and IPv6). Port 0 asks the
// system for a free port (Listener::port() tells which). Errors: invalid_argument.
[[nodiscard]] Result<HostPort> parse_listen_address(std::string_view text, std::string_view default_host);

// "db1:1066", "10.0.0.5:1066", "[::1]:1066": brackets whenever the host holds a ':'.
[[nodiscard]] std::string to_string(const HostPort& address);

}  // namespace iomark::transport
