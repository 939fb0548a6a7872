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

#include "iomark/common/utf8.hpp"

namespace iomark {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_TRUE(is_utf8("plain ASCII"));
  EXPECT_TRUE(is_utf8("Gr\xC3\xBC\xC3\x9F" "e"));      // Grüße
  EXPECT_TRUE(is_utf8("\xE2\x82\xAC"));                // €
  EXPECT_TRUE(is_utf8("\xF0\x9F\x92\xBE"));            // U+1F4BE
  EXPECT_EQ(utf8_sequence_length("\xE2\x82\xAC", 0), 3U);
}

TEST(Utf8, RejectsWhatRfc3629Forbids) {
  EXPECT_FALSE(is_utf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(is_utf8("\xE0\x80\xAF"));      // overlong, 3 bytes
  EXPECT_FALSE(is_utf8("\xED\xA0\x80"));      // surrogate U+D800
  EXPECT_FALSE(is_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_utf8("\xE2\x82"));          // truncated
  EXPECT_FALSE(is_utf8("\x80"));              // a lone continuation byte
  EXPECT_EQ(utf8_sequence_length("\xFF", 0), 0U);
}

}  // namespace
}  // namespace iomark
