#include "iomark/network/pair_proof.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "iomark/protocol/auth.hpp"

namespace iomark::network {

namespace {

constexpr std::string_view kMagic = "IOMKNET1";
constexpr std::string_view kContext = "iomark.v1 network pair";

}  // namespace

Result<Preamble> make_preamble(const protocol::PairSecret& secret, std::string_view client_address,
                               std::uint16_t server_port) {
  std::vector<std::byte> data;
  const auto append = [&data](std::string_view text) {
    for (const char c : text) data.push_back(static_cast<std::byte>(c));
    data.push_back(std::byte{0});
  };
  append(kContext);
  append(client_address);
  data.push_back(static_cast<std::byte>(server_port >> 8));
  data.push_back(static_cast<std::byte>(server_port & 0xFF));
  auto proof = protocol::hmac_sha256(secret, data);
  if (!proof) return fail(proof.error());
  Preamble preamble{};
  std::memcpy(preamble.data(), kMagic.data(), kMagic.size());
  std::copy(proof->begin(), proof->end(), preamble.begin() + static_cast<std::ptrdiff_t>(kMagic.size()));
  return preamble;
}

bool preamble_matches(std::span<const std::byte> received, const Preamble& expected) noexcept {
  return protocol::constant_time_equal(received, expected);
}

}  // namespace iomark::network
