#include "iomark/network/pair_proof.hpp"

#include <gtest/gtest.h>

namespace iomark::network {
namespace {

protocol::PairSecret secret(std::uint8_t first) {
  protocol::PairSecret bytes{};
  bytes[0] = std::byte{first};
  return bytes;
}

TEST(PairProof, TheSameSecretAddressAndPortGiveTheSamePreamble) {
  const auto a = make_preamble(secret(1), "10.0.0.2", 4000);
  const auto b = make_preamble(secret(1), "10.0.0.2", 4000);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(preamble_matches(*a, *b));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(a->data()), 8), "IOMKNET1");
}

TEST(PairProof, AnotherSecretAddressOrPortDoesNotMatch) {
  const auto good = make_preamble(secret(1), "10.0.0.2", 4000);
  ASSERT_TRUE(good);
  for (const auto& other : {make_preamble(secret(2), "10.0.0.2", 4000), make_preamble(secret(1), "10.0.0.3", 4000),
                            make_preamble(secret(1), "10.0.0.2", 4001)}) {
    ASSERT_TRUE(other);
    EXPECT_FALSE(preamble_matches(*other, *good));
  }
  EXPECT_FALSE(preamble_matches(std::span(good->data(), 10), *good)) << "a short preamble";
}

}  // namespace
}  // namespace iomark::network
