#include "iomark/transport/first_bytes.hpp"

#include <algorithm>
#include <array>

#include "iomark/protocol/frame.hpp"

namespace iomark::transport {

namespace {

struct Signature {
  FirstBytes kind;
  std::span<const std::byte> bytes;
};

constexpr std::array<std::byte, 2> kTlsHandshakeRecord{std::byte{0x16}, std::byte{0x03}};
// Purpose LOGIN (0x10000001) little-endian: legacy::Purpose::login, checked against the legacy
// codec by the controller's tests (transport does not link the codec).
constexpr std::array<std::byte, 4> kDynamoLogin{std::byte{0x01}, std::byte{0x00}, std::byte{0x00}, std::byte{0x10}};

constexpr std::array<Signature, 3> kSignatures{{
    {FirstBytes::iomark, protocol::kFrameMagic},
    {FirstBytes::tls, kTlsHandshakeRecord},
    {FirstBytes::dynamo_login, kDynamoLogin},
}};

}  // namespace

FirstBytes classify_first_bytes(std::span<const std::byte> prefix) noexcept {
  bool possible = false;
  for (const auto& signature : kSignatures) {
    const auto compared = std::min(prefix.size(), signature.bytes.size());
    if (!std::equal(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(compared), signature.bytes.begin())) {
      continue;
    }
    if (compared == signature.bytes.size()) return signature.kind;
    possible = true;
  }
  return possible ? FirstBytes::need_more : FirstBytes::unknown;
}

std::string_view to_string(FirstBytes kind) noexcept {
  switch (kind) {
    case FirstBytes::need_more: return "too few bytes";
    case FirstBytes::iomark: return "an iomark frame";
    case FirstBytes::tls: return "a TLS handshake";
    case FirstBytes::dynamo_login: return "a Dynamo 1.1.0 login";
    case FirstBytes::unknown: return "an unknown protocol";
  }
  return "an unknown protocol";
}

std::string hex_bytes(std::span<const std::byte> bytes) {
  std::string text;
  for (const auto byte : bytes) {
    if (!text.empty()) text += ' ';
    constexpr std::string_view kDigits = "0123456789abcdef";
    text += kDigits[static_cast<unsigned>(byte) >> 4];
    text += kDigits[static_cast<unsigned>(byte) & 0x0FU];
  }
  return text;
}

}  // namespace iomark::transport
