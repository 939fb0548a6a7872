// The first-bytes classifier: every prefix of each protocol's opening, however split, and
// every first byte that opens none of them.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "iomark/protocol/frame.hpp"
#include "iomark/protocol/handshake.hpp"
#include "iomark/transport/first_bytes.hpp"

namespace iomark::transport::test {
namespace {

std::vector<std::byte> bytes_of(std::initializer_list<unsigned> values) {
  std::vector<std::byte> bytes;
  for (const auto value : values) bytes.push_back(static_cast<std::byte>(value));
  return bytes;
}

std::vector<std::byte> hello_frame() {
  auto frame = protocol::encode_frame(protocol::Envelope{
      .message = protocol::make_hello(protocol::Role::agent, "iomark test", "db1", "", protocol::AuthMode::none)});
  EXPECT_TRUE(frame.has_value());
  return frame ? *frame : std::vector<std::byte>{};
}

// A TLS 1.3 ClientHello's record header and the start of the handshake message.
const std::vector<std::byte> kClientHello = bytes_of({0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03});
// Dynamo 1.1.0's LOGIN Message: purpose 0x10000001, data = version code 0x01000100, little-endian.
const std::vector<std::byte> kDynamoLogin = bytes_of({0x01, 0x00, 0x00, 0x10, 0x00, 0x01, 0x00, 0x01});

// Each prefix of `opening`, from none of it to all of it, as the listener sees it when the
// bytes arrive one at a time: too short until `decisive` bytes, then `kind` for good.
void expect_every_prefix(const std::vector<std::byte>& opening, std::size_t decisive, FirstBytes kind) {
  ASSERT_GE(opening.size(), decisive);
  for (std::size_t length = 0; length <= opening.size(); ++length) {
    const auto got = classify_first_bytes(std::span(opening).first(length));
    EXPECT_EQ(got, length < decisive ? FirstBytes::need_more : kind)
        << "after " << length << " bytes: " << hex_bytes(std::span(opening).first(length));
  }
}

TEST(FirstBytes, AnIomarkFrameIsKnownByItsMagicWhateverFollows) {
  expect_every_prefix(hello_frame(), 4, FirstBytes::iomark);
}

TEST(FirstBytes, ATlsClientHelloIsKnownByItsRecordHeader) { expect_every_prefix(kClientHello, 2, FirstBytes::tls); }

TEST(FirstBytes, ADynamoLoginIsKnownByItsPurposeWhateverItsVersion) {
  expect_every_prefix(kDynamoLogin, 4, FirstBytes::dynamo_login);
  // Another version is still a login: the Dynamo side answers it with WRONG_VERSION.
  expect_every_prefix(bytes_of({0x01, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x01}), 4, FirstBytes::dynamo_login);
}

TEST(FirstBytes, AnyOtherFirstByteIsUnknownAtOnce) {
  for (unsigned value = 0; value <= 0xff; ++value) {
    if (value == 'I' || value == 0x16 || value == 0x01) continue;
    const std::array prefix{static_cast<std::byte>(value)};
    EXPECT_EQ(classify_first_bytes(prefix), FirstBytes::unknown) << "first byte " << value;
  }
}

TEST(FirstBytes, AnOpeningThatGoesAstrayIsUnknownAtTheByteThatDiffers) {
  // Each signature with one byte changed: still too short before it, unknown from it on.
  const std::vector<std::vector<std::byte>> openings{
      {protocol::kFrameMagic.begin(), protocol::kFrameMagic.end()},
      bytes_of({0x16, 0x03}),
      bytes_of({0x01, 0x00, 0x00, 0x10}),
  };
  for (const auto& opening : openings) {
    for (std::size_t changed = 1; changed < opening.size(); ++changed) {
      auto astray = opening;
      astray[changed] = static_cast<std::byte>(static_cast<unsigned>(astray[changed]) ^ 0x40U);
      for (std::size_t length = 1; length <= astray.size(); ++length) {
        EXPECT_EQ(classify_first_bytes(std::span(astray).first(length)),
                  length <= changed ? FirstBytes::need_more : FirstBytes::unknown)
            << hex_bytes(std::span(astray).first(length));
      }
    }
  }
  const std::string http = "GET / HTTP/1.1\r\n";
  EXPECT_EQ(classify_first_bytes(std::as_bytes(std::span(http.data(), http.size()))), FirstBytes::unknown);
}

TEST(FirstBytes, HexNamesWhatAPeerSent) {
  EXPECT_EQ(hex_bytes(kDynamoLogin), "01 00 00 10 00 01 00 01");
  EXPECT_EQ(hex_bytes({}), "");
  EXPECT_EQ(to_string(FirstBytes::dynamo_login), "a Dynamo 1.1.0 login");
}

}  // namespace
}  // namespace iomark::transport::test
