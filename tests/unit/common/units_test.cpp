#include "iomark/common/units.hpp"

#include <gtest/gtest.h>

namespace iomark {
namespace {

TEST(FormatSize, UsesIometerCaptions) {
  EXPECT_EQ(format_size(Bytes(512)), "512 B");
  EXPECT_EQ(format_size(Bytes(2048)), "2 KiB");
  EXPECT_EQ(format_size(kib(64)), "64 KiB");
  EXPECT_EQ(format_size(mib(1)), "1 MiB");
  EXPECT_EQ(format_size(Bytes(1536)), "1.5 KiB");
  EXPECT_EQ(format_size(gib(2)), "2 GiB");
}

TEST(ParseSize, AcceptsBinarySuffixesInAnySpelling) {
  EXPECT_EQ(parse_size("4096"), Bytes(4096));
  EXPECT_EQ(parse_size("4k"), kib(4));
  EXPECT_EQ(parse_size("4K"), kib(4));
  EXPECT_EQ(parse_size("4 KiB"), kib(4));
  EXPECT_EQ(parse_size("64KB"), kib(64));
  EXPECT_EQ(parse_size(" 1m "), mib(1));
  EXPECT_EQ(parse_size("2G"), gib(2));
  EXPECT_EQ(parse_size("512b"), Bytes(512));
}

TEST(ParseSize, RejectsGarbageAndOverflow) {
  EXPECT_FALSE(parse_size(""));
  EXPECT_FALSE(parse_size("k"));
  EXPECT_FALSE(parse_size("-4k"));
  EXPECT_FALSE(parse_size("4x"));
  EXPECT_FALSE(parse_size("4 k b"));
  EXPECT_FALSE(parse_size("99999999999999999999"));
  EXPECT_FALSE(parse_size("17179869184T"));  // 2^34 TiB does not fit in 64 bits
}

TEST(FormatDuration, ThreeSignificantDigits) {
  EXPECT_EQ(format_duration(Nanoseconds(850)), "850 ns");
  EXPECT_EQ(format_duration(Nanoseconds(12'340)), "12.3 us");
  EXPECT_EQ(format_duration(Nanoseconds(4'560'000)), "4.56 ms");
  EXPECT_EQ(format_duration(Nanoseconds(1'200'000'000)), "1.20 s");
  EXPECT_EQ(format_duration(Nanoseconds(250'000'000)), "250 ms");
}

TEST(Throughput, DecimalAndBinaryMegabytes) {
  EXPECT_DOUBLE_EQ(megabytes_per_second(Bytes(3'000'000), 2.0), 1.5);
  EXPECT_DOUBLE_EQ(mebibytes_per_second(mib(10), 4.0), 2.5);
  EXPECT_DOUBLE_EQ(megabytes_per_second(Bytes(1), 0.0), 0.0);
}

}  // namespace
}  // namespace iomark
