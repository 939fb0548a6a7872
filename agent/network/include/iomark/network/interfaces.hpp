// This host's IPv4 interfaces for the inventory (docs/iometer-reference.md#discovery: every
// interface with an IPv4 address), with the MTU and, where the driver reports it, the link
// speed from /sys/class/net/NAME/speed. Reads the system; never fails (an unreadable
// attribute is left unknown).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "iomark/protocol/messages.hpp"

namespace iomark::network {

[[nodiscard]] std::vector<protocol::NetworkInterface> list_interfaces();

// The link speed in Mb/s from the text of a /sys/class/net/NAME/speed file: nullopt for
// what drivers write when they do not know ("-1", nothing, garbage).
[[nodiscard]] std::optional<std::uint32_t> parse_link_speed(const std::string& text);

}  // namespace iomark::network
