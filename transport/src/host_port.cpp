#include "iomark/transport/host_port.hpp"

#include <charconv>

namespace iomark::transport {

namespace {

Result<std::uint16_t> parse_port(std::string_view text, std::string_view whole, std::uint32_t lowest) {
  std::uint32_t port = 0;
  const auto* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, port);
  if (text.empty() || error != std::errc{} || stop != end || port < lowest || port > 65535) {
    return fail(Error(ErrorCode::invalid_argument, "'" + std::string(whole) + "': the port must be a number from " +
                                                       std::to_string(lowest) + " to 65535")
                    .in_field("port"));
  }
  return static_cast<std::uint16_t>(port);
}

Error bad_address(std::string_view whole, std::string_view why) {
  return Error(ErrorCode::invalid_argument, "'" + std::string(whole) + "': " + std::string(why)).in_field("address");
}

// Splits "HOST", "HOST:PORT", "[V6]", "[V6]:PORT" and a bare "V6" into host and port text.
Result<std::pair<std::string_view, std::string_view>> split(std::string_view text) {
  if (text.starts_with('[')) {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return fail(bad_address(text, "'[' without ']'"));
    const auto rest = text.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) return fail(bad_address(text, "expected ':PORT' after ']'"));
    return std::pair{text.substr(1, close - 1), rest.empty() ? rest : rest.substr(1)};
  }
  const auto colon = text.find(':');
  if (colon != std::string_view::npos && text.find(':', colon + 1) != std::string_view::npos) {
    return std::pair{text, std::string_view{}};  // a bare IPv6 literal
  }
  if (colon == std::string_view::npos) return std::pair{text, std::string_view{}};
  return std::pair{text.substr(0, colon), text.substr(colon + 1)};
}

}  // namespace

Result<HostPort> parse_host_port(std::string_view text, std::uint16_t default_port) {
  auto parts = split(text);
  if (!parts) return fail(std::move(parts).error());
  const auto [host, port_text] = *parts;
  if (host.empty()) return fail(bad_address(text, "the host is missing"));
  if (port_text.empty()) {
    if (text.ends_with(':')) return fail(bad_address(text, "the port after ':' is missing"));
    return HostPort{std::string(host), default_port};
  }
  auto port = parse_port(port_text, text, 1);
  if (!port) return fail(std::move(port).error());
  return HostPort{std::string(host), *port};
}

Result<HostPort> parse_listen_address(std::string_view text, std::string_view default_host) {
  if (text.find_first_not_of("0123456789") == std::string_view::npos) {
    auto port = parse_port(text, text, 0);
    if (!port) return fail(std::move(port).error());
    return HostPort{std::string(default_host), *port};
  }
  auto parts = split(text);
  if (!parts) return fail(std::move(parts).error());
  const auto [host, port_text] = *parts;
  if (host.empty()) return fail(bad_address(text, "the address is missing"));
  if (port_text.empty()) return fail(bad_address(text, "the port is missing (ADDR:PORT)"));
  auto port = parse_port(port_text, text, 0);
  if (!port) return fail(std::move(port).error());
  return HostPort{std::string(host), *port};
}

std::string to_string(const HostPort& address) {
  const auto port = std::to_string(address.port);
  if (address.host.find(':') != std::string::npos) return "[" + address.host + "]:" + port;
  return address.host + ":" + port;
}

}  // namespace iomark::transport
