#include "iomark/network/transfer_sequence.hpp"

#include <gtest/gtest.h>

namespace iomark::network {
namespace {

access_specs::AccessSpec spec_of(std::vector<access_specs::AccessSpecLine> lines) {
  access_specs::AccessSpec spec;
  spec.name = "test";
  spec.lines = std::move(lines);
  return spec;
}

TEST(TransferSequence, TheClientDoesTheOppositeOfTheServerAndCountsTheSame) {
  // 50% reads, half the transactions with a 512-byte reply: both ends decide alike.
  const auto spec = spec_of({{4096, 50, 50, 0, 0, 1, 0, 0}, {65536, 50, 30, 0, 0, 3, 0, 512}});
  auto server = TransferSequence::create(spec, PairEnd::server, 1234);
  auto client = TransferSequence::create(spec, PairEnd::client, 1234);
  ASSERT_TRUE(server && client);
  int reads = 0;
  int replies = 0;
  for (int i = 0; i < 2000; ++i) {
    const auto s = server->next();
    const auto c = client->next();
    ASSERT_EQ(s.request.bytes, c.request.bytes);
    ASSERT_EQ(s.reply_bytes, c.reply_bytes);
    ASSERT_NE(s.request.action, c.request.action) << "one end sends what the other receives";
    ASSERT_EQ(s.request.counts_as_read, c.request.counts_as_read);
    EXPECT_EQ(s.request.counts_as_read, s.request.action == Transfer::receive) << "a server's read is a receive";
    if (s.reply_bytes != 0) {
      EXPECT_NE(s.reply().action, s.request.action);
      EXPECT_EQ(s.reply().action, c.request.action);
      ++replies;
    }
    reads += s.request.counts_as_read ? 1 : 0;
  }
  // Half the bursts draw each line; the second line's bursts are 3 transactions long, so
  // 3/4 of the transactions are its own: 2000 * (1/4 * 50% + 3/4 * 30%) reads.
  EXPECT_NEAR(reads, 700, 120);
  EXPECT_NEAR(replies, 1500, 150);
  EXPECT_EQ(server->max_transfer_bytes(), 65536U);
}

TEST(TransferSequence, AllReadsMakeTheServerReceiveEveryTime) {
  auto server = TransferSequence::create(spec_of({{4096, 100, 100, 0, 0, 1, 0, 0}}), PairEnd::server, 0);
  auto client = TransferSequence::create(spec_of({{4096, 100, 100, 0, 0, 1, 0, 0}}), PairEnd::client, 0);
  ASSERT_TRUE(server && client);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(server->next().request.action, Transfer::receive);
    EXPECT_EQ(client->next().request.action, Transfer::send);
  }
}

TEST(TransferSequence, DelayComesAtTheStartOfEachBurst) {
  auto server = TransferSequence::create(spec_of({{512, 100, 0, 0, 20, 3, 0, 0}}), PairEnd::server, 9);
  ASSERT_TRUE(server);
  std::vector<std::uint32_t> delays;
  for (int i = 0; i < 7; ++i) delays.push_back(server->next().delay_ms);
  EXPECT_EQ(delays, (std::vector<std::uint32_t>{20, 0, 0, 20, 0, 0, 20}));
}

TEST(TransferSequence, AnIdleSpecIsRefused) {
  EXPECT_FALSE(TransferSequence::create(spec_of({}), PairEnd::server, 1));
}

}  // namespace
}  // namespace iomark::network
