#include "iomark/network/interfaces.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace iomark::network {
namespace {

TEST(Interfaces, LinkSpeedIsReadWhereTheDriverKnowsIt) {
  EXPECT_EQ(parse_link_speed("10000\n"), 10000U);
  EXPECT_EQ(parse_link_speed("25000"), 25000U);
  EXPECT_EQ(parse_link_speed("-1\n"), std::nullopt);  // a link that is down, a veth
  EXPECT_EQ(parse_link_speed(""), std::nullopt);       // loopback: reading fails
  EXPECT_EQ(parse_link_speed("fast"), std::nullopt);
}

TEST(Interfaces, LoopbackIsListedWithItsAddressAndMtu) {
  const auto found = list_interfaces();
  const auto loopback = std::find_if(found.begin(), found.end(), [](const auto& nic) { return nic.address == "127.0.0.1"; });
  ASSERT_NE(loopback, found.end());
  EXPECT_EQ(loopback->prefix_length, 8U);
  EXPECT_GT(loopback->mtu_bytes, 0U);
  EXPECT_EQ(loopback->speed_mbps, std::nullopt);
}

}  // namespace
}  // namespace iomark::network
