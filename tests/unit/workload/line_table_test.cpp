#include "iomark/workload/line_table.hpp"

#include <gtest/gtest.h>

#include "support.hpp"

namespace iomark::workload {
namespace {

using test::line;
using test::spec;

TEST(LineTable, LinesFillConsecutiveSlots) {
  const auto table = LineTable::create(spec({line(512, 30, 100, 0), line(4096, 70, 0, 100)}));
  ASSERT_TRUE(table.has_value());
  for (std::uint32_t slot = 0; slot < kLineSlots; ++slot) {
    EXPECT_EQ(table->at_slot(slot).index, slot < 30 ? 0U : 1U) << "slot " << slot;
  }
  EXPECT_EQ(table->at_slot(29).spec.size_bytes, 512U);
  EXPECT_EQ(table->at_slot(30).spec.size_bytes, 4096U);
  EXPECT_EQ(table->slots_of(0), 30U);
  EXPECT_EQ(table->slots_of(1), 70U);
}

TEST(LineTable, SlotsPastOneHundredAreDropped) {
  const auto table = LineTable::create(spec({line(512, 60, 100, 0), line(1024, 60, 100, 0), line(1 << 20, 10, 100, 0)}));
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(table->slots_of(0), 60U);
  EXPECT_EQ(table->slots_of(1), 40U);
  EXPECT_EQ(table->slots_of(2), 0U);
  // The unreachable 1 MiB line does not size the buffers.
  EXPECT_EQ(table->max_transfer_bytes(), 1024U);
}

TEST(LineTable, MaxTransferCountsReplies) {
  const auto table = LineTable::create(spec({line(512, 50, 100, 0), line(2048, 50, 100, 0, 0, 1, 0, 65536)}));
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(table->max_transfer_bytes(), 65536U);
}

TEST(LineTable, HasWritesWhenReadsBelowHundredOrAReply) {
  EXPECT_FALSE(LineTable::create(spec({line(512, 100, 100, 0)}))->has_writes());
  EXPECT_TRUE(LineTable::create(spec({line(512, 100, 99, 0)}))->has_writes());
  EXPECT_TRUE(LineTable::create(spec({line(512, 100, 100, 0, 0, 1, 0, 512)}))->has_writes());
  // A writing line that owns no slot never runs.
  EXPECT_FALSE(LineTable::create(spec({line(512, 100, 100, 0), line(512, 0, 0, 0)}))->has_writes());
}

TEST(LineTable, RefusesIdleZeroSizeAndShortPercentages) {
  const auto idle = LineTable::create(spec({}));
  ASSERT_FALSE(idle.has_value());
  EXPECT_NE(idle.error().message().find("no lines"), std::string::npos);

  const auto zero = LineTable::create(spec({line(512, 50, 100, 0), line(0, 50, 100, 0)}));
  ASSERT_FALSE(zero.has_value());
  EXPECT_NE(zero.error().message().find("line 2"), std::string::npos);
  EXPECT_EQ(zero.error().field(), "size");

  const auto shortfall = LineTable::create(spec({line(512, 40, 100, 0), line(512, 50, 100, 0)}));
  ASSERT_FALSE(shortfall.has_value());
  EXPECT_NE(shortfall.error().message().find("90"), std::string::npos);
}

}  // namespace
}  // namespace iomark::workload
