#include "iomark/network/interfaces.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <bit>
#include <charconv>

#include "iomark/common/text_file.hpp"

namespace iomark::network {

namespace {

// Empty when the interface has no such attribute (or the driver cannot tell).
std::string read_attribute(const std::string& interface, const char* attribute) {
  return read_text_file("/sys/class/net/" + interface + "/" + attribute).value_or(std::string());
}

}  // namespace

std::optional<std::uint32_t> parse_link_speed(const std::string& text) {
  std::uint32_t speed = 0;
  const auto* begin = text.data();
  const auto* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(begin, end, speed);
  if (error != std::errc() || stop == begin || speed == 0 || (stop != end && *stop != '\n')) return std::nullopt;
  return speed;
}

std::vector<protocol::NetworkInterface> list_interfaces() {
  std::vector<protocol::NetworkInterface> found;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return found;
  for (const auto* entry = list; entry != nullptr && found.size() < protocol::kMaxNetworkInterfaces;
       entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
    const auto* address = reinterpret_cast<const sockaddr_in*>(entry->ifa_addr);
    char text[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &address->sin_addr, text, sizeof text);
    protocol::NetworkInterface nic;
    nic.name = entry->ifa_name;
    nic.address = text;
    if (entry->ifa_netmask != nullptr) {
      const auto* mask = reinterpret_cast<const sockaddr_in*>(entry->ifa_netmask);
      nic.prefix_length = static_cast<std::uint32_t>(std::popcount(ntohl(mask->sin_addr.s_addr)));
    }
    std::uint32_t mtu = 0;
    const auto mtu_text = read_attribute(nic.name, "mtu");
    std::from_chars(mtu_text.data(), mtu_text.data() + mtu_text.size(), mtu);
    nic.mtu_bytes = mtu;
    nic.speed_mbps = parse_link_speed(read_attribute(nic.name, "speed"));
    found.push_back(std::move(nic));
  }
  ::freeifaddrs(list);
  return found;
}

}  // namespace iomark::network
