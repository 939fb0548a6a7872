#include "iomark/common/result.hpp"

#include <gtest/gtest.h>

namespace iomark {
namespace {

Result<int> half_of_even(int value) {
  if (value % 2 != 0) return fail(ErrorCode::invalid_argument, "odd value " + std::to_string(value));
  return value / 2;
}

TEST(Error, DescribeNamesFileLineAndField) {
  const auto error = Error(ErrorCode::parse_error, "expected a number").at({"plan.icf", 42}).in_field("Run Time");
  EXPECT_EQ(error.describe(), "plan.icf:42: Run Time: expected a number");
  EXPECT_EQ(error.code(), ErrorCode::parse_error);
}

TEST(Error, DescribeLeavesOutUnknownParts) {
  EXPECT_EQ(Error(ErrorCode::io_error, "disk full").describe(), "disk full");
  EXPECT_EQ(Error(ErrorCode::io_error, "x").at({"", 7}).describe(), "line 7: x");
  EXPECT_EQ(Error(ErrorCode::io_error, "x").at({"f.csv", 0}).describe(), "f.csv: x");
}

TEST(Result, CarriesValueOrError) {
  EXPECT_EQ(half_of_even(8).value(), 4);
  const auto odd = half_of_even(3);
  ASSERT_FALSE(odd.has_value());
  EXPECT_EQ(odd.error().message(), "odd value 3");
  EXPECT_EQ(to_string(odd.error().code()), "invalid argument");
}

TEST(ErrorCode, WaitingOutcomesHaveTheirOwnNames) {
  EXPECT_EQ(to_string(ErrorCode::timed_out), "timed out");
  EXPECT_EQ(to_string(ErrorCode::cancelled), "cancelled");
}

}  // namespace
}  // namespace iomark
