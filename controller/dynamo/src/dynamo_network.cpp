#include "dynamo_network.hpp"

#include <limits>

#include "iomark/controller/network_pairing.hpp"

namespace iomark::controller::dynamo {

std::vector<protocol::NetworkInterface> interfaces_of(std::span<const legacy::TargetSpec> tcp_nics) {
  std::vector<protocol::NetworkInterface> interfaces;
  for (const auto& nic : tcp_nics) {
    protocol::NetworkInterface interface;
    interface.name = nic.name;
    interface.address = nic.name;
    interface.prefix_length = is_loopback(nic.name) ? 8 : 32;
    interfaces.push_back(std::move(interface));
  }
  return interfaces;
}

legacy::TargetSpec network_target(const protocol::NetworkEndpoint& end, std::uint16_t server_port) {
  const bool server = end.role == protocol::NetworkRole::server;
  legacy::TargetSpec target;
  target.name = end.local_address;
  target.type = (server ? legacy::target_type::kTcpClient : legacy::target_type::kTcpServer) | legacy::target_type::kActive;
  target.details = legacy::TcpDetails{0, end.peer_address, server ? std::uint16_t{0} : server_port};
  return target;
}

Result<std::uint16_t> listening_port(std::span<const std::byte> echo) {
  auto targets = legacy::decode_target_list(echo, legacy::TargetListUse::assignment);
  if (!targets) return fail(Error(ErrorCode::io_error, "its SET_TARGETS echo does not decode: " + targets.error().message()));
  if (targets->size() != 1 || !std::holds_alternative<legacy::TcpDetails>(targets->front().details)) {
    return fail(ErrorCode::io_error, "its SET_TARGETS echo is not the one TCP target sent");
  }
  const auto port = std::get<legacy::TcpDetails>(targets->front().details).local_port;
  if (port == 0 || port == std::numeric_limits<std::uint16_t>::max()) {
    return fail(ErrorCode::io_error, "its server on " + targets->front().name + " reported port " + std::to_string(port) +
                                         " (no listening socket)");
  }
  return port;
}

}  // namespace iomark::controller::dynamo
