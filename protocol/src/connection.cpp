#include "iomark/protocol/connection.hpp"

namespace iomark::protocol {

std::string PeerInfo::describe() const {
  std::string text = std::string(to_string(role)) + " '" + name + "'";
  if (!endpoint.empty()) text += " (" + endpoint + ")";
  return text;
}

}  // namespace iomark::protocol
