#include "iomark/access_specs/access_spec.hpp"

#include <gtest/gtest.h>

#include <string>

namespace iomark::access_specs {
namespace {

AccessSpecLine line_with(std::uint32_t size, std::uint32_t of_size) {
  AccessSpecLine line;
  line.size_bytes = size;
  line.percent_of_size = of_size;
  return line;
}

AccessSpec spec_named(std::string name) {
  return AccessSpec{std::move(name), DefaultAssignment::none, {AccessSpecLine{}}};
}

// ---- validate(AccessSpec) -------------------------------------------------------------

TEST(ValidateSpec, AcceptsTheDefaultLine) { EXPECT_TRUE(validate(spec_named("X"))); }

TEST(ValidateSpec, OfSizeMustTotalExactly100) {
  AccessSpec spec{"X", DefaultAssignment::none, {line_with(512, 40), line_with(4096, 50)}};
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'X': '% of size' totals 90, must be 100");
  EXPECT_EQ(result.error().field(), "percent_of_size");
  EXPECT_EQ(result.error().code(), ErrorCode::validation_error);

  spec.lines[1].percent_of_size = 61;
  const auto over = validate(spec);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().message(), "spec 'X': '% of size' totals 101, must be 100");

  spec.lines[1].percent_of_size = 60;
  EXPECT_TRUE(validate(spec));
}

TEST(ValidateSpec, OfSizeZeroLinesAreAllowedAsIn110) {
  AccessSpec spec{"X", DefaultAssignment::none, {line_with(512, 0), line_with(4096, 100)}};
  EXPECT_TRUE(validate(spec));
}

TEST(ValidateSpec, NamesTheOneBasedLineAndFieldOfAPercentageOutOfRange) {
  AccessSpec spec{"X", DefaultAssignment::none, {line_with(512, 50), line_with(4096, 50)}};
  spec.lines[1].percent_reads = 101;
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'X' line 2: '% reads' is 101, must be at most 100");
  EXPECT_EQ(result.error().field(), "percent_reads");
  EXPECT_EQ(result.error().code(), ErrorCode::invalid_argument);
}

TEST(ValidateSpec, RandomPercentageAbove100IsRejected) {
  AccessSpec spec = spec_named("Y");
  spec.lines[0].percent_random = 200;
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'Y' line 1: '% random' is 200, must be at most 100");
  EXPECT_EQ(result.error().field(), "percent_random");
}

TEST(ValidateSpec, OfSizeAbove100OnOneLineIsARangeError) {
  AccessSpec spec{"X", DefaultAssignment::none, {line_with(512, 150)}};
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'X' line 1: '% of size' is 150, must be at most 100");
}

TEST(ValidateSpec, SizeMustBePositive) {
  AccessSpec spec = spec_named("X");
  spec.lines[0].size_bytes = 0;
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'X' line 1: 'size' is 0, must be at least 1");
  EXPECT_EQ(result.error().field(), "size");
}

TEST(ValidateSpec, BurstMustBeAtLeastOne) {
  AccessSpec spec = spec_named("X");
  spec.lines[0].burst_transactions = 0;
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'X' line 1: 'burst' is 0, must be at least 1");
  EXPECT_EQ(result.error().field(), "burst");
}

TEST(ValidateSpec, NeedsAtLeastOneLine) {
  AccessSpec spec{"Empty", DefaultAssignment::none, {}};
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'Empty': has 0 lines, must have 1 to 100");
  EXPECT_EQ(result.error().field(), "lines");
}

TEST(ValidateSpec, AcceptsExactly100LinesAndRejects101) {
  AccessSpec spec{"Many", DefaultAssignment::none, std::vector<AccessSpecLine>(100, line_with(512, 1))};
  EXPECT_TRUE(validate(spec));
  spec.lines.push_back(line_with(512, 0));
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'Many': has 101 lines, must have 1 to 100");
}

TEST(ValidateSpec, NameMayHave127BytesButNot128) {
  EXPECT_TRUE(validate(spec_named(std::string(127, 'a'))));
  const auto result = validate(spec_named(std::string(128, 'a')));
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message().find("name is 128 bytes long, at most 127"), std::string::npos);
  EXPECT_EQ(result.error().field(), "name");
}

TEST(ValidateSpec, NameMustNotContainTheIcfSeparators) {
  const auto comma = validate(spec_named("a,b"));
  ASSERT_FALSE(comma);
  EXPECT_EQ(comma.error().message(), "spec 'a,b': name contains ',', which the ICF uses as a separator");
  const auto pipe = validate(spec_named("a|b"));
  ASSERT_FALSE(pipe);
  EXPECT_EQ(pipe.error().message(), "spec 'a|b': name contains '|', which the ICF uses as a separator");
  EXPECT_EQ(pipe.error().field(), "name");
}

TEST(ValidateSpec, NameMustNotBeEmptyStartBlankOrHoldControlCharacters) {
  const auto empty = validate(spec_named(""));
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message(), "spec '': name is empty");
  const auto blank = validate(spec_named(" lead"));
  ASSERT_FALSE(blank);
  EXPECT_EQ(blank.error().message(), "spec ' lead': name starts with a blank, which the ICF reader drops");
  const auto tab = validate(spec_named("a\tb"));
  ASSERT_FALSE(tab);
  EXPECT_EQ(tab.error().field(), "name");
  EXPECT_TRUE(validate(spec_named("4 KiB; 100% Read; 0% random")));
  EXPECT_TRUE(validate(spec_named("trailing blank is kept ")));
}

TEST(ValidateSpec, RejectsAnUnknownDefaultAssignment) {
  AccessSpec spec = spec_named("X");
  spec.default_assignment = static_cast<DefaultAssignment>(7);
  const auto result = validate(spec);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'X': default assignment 7 is not one of NONE, ALL, DISK, NET");
  EXPECT_EQ(result.error().field(), "default_assignment");
}

// ---- parse_spec_line / format_spec_line ---------------------------------------------------

TEST(ParseSpecLine, ReadsTheEightIcfFieldsInOrder) {
  const auto line = parse_spec_line("8192,70,67,100,5,8,4096,512");
  ASSERT_TRUE(line) << line.error().message();
  EXPECT_EQ(line->size_bytes, 8192U);
  EXPECT_EQ(line->percent_of_size, 70U);
  EXPECT_EQ(line->percent_reads, 67U);
  EXPECT_EQ(line->percent_random, 100U);
  EXPECT_EQ(line->delay_ms, 5U);
  EXPECT_EQ(line->burst_transactions, 8U);
  EXPECT_EQ(line->align_bytes, 4096U);
  EXPECT_EQ(line->reply_bytes, 512U);
}

TEST(ParseSpecLine, AcceptsSizeSuffixesOnlyInByteFields) {
  const auto line = parse_spec_line("4k,100,0,100,0,1,64KiB,1m");
  ASSERT_TRUE(line) << line.error().message();
  EXPECT_EQ(line->size_bytes, 4096U);
  EXPECT_EQ(line->align_bytes, 65536U);
  EXPECT_EQ(line->reply_bytes, 1048576U);

  const auto percent = parse_spec_line("4096,1k,0,100,0,1,0,0");
  ASSERT_FALSE(percent);
  EXPECT_EQ(percent.error().message(), "field 2 ('% of size'): '1k' is not a number");
  EXPECT_EQ(percent.error().field(), "percent_of_size");
}

TEST(ParseSpecLine, ToleratesBlanksTabsCarriageReturnAndOneTrailingComma) {
  const auto line = parse_spec_line("\t512 , 100,100, 0,0,1,0,0,\r");
  ASSERT_TRUE(line) << line.error().message();
  EXPECT_EQ(line->size_bytes, 512U);
  EXPECT_EQ(line->percent_reads, 100U);
  EXPECT_EQ(line->percent_random, 0U);
}

TEST(ParseSpecLine, RejectsMissingAndExtraFields) {
  const auto missing = parse_spec_line("512,100,100,0,0,1,0");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message(),
            "expected 8 comma-separated fields (size,% of size,% reads,% random,delay,burst,align,reply), "
            "found 7");
  EXPECT_EQ(missing.error().code(), ErrorCode::parse_error);

  const auto extra = parse_spec_line("512,100,100,0,0,1,0,0,9");
  ASSERT_FALSE(extra);
  EXPECT_NE(extra.error().message().find("found 9"), std::string::npos);

  const auto two_trailing = parse_spec_line("512,100,100,0,0,1,0,0,,");
  ASSERT_FALSE(two_trailing);
  EXPECT_NE(two_trailing.error().message().find("found 9"), std::string::npos);

  const auto empty = parse_spec_line("");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message().find("found 1"), std::string::npos);
}

TEST(ParseSpecLine, NamesAnEmptyField) {
  const auto result = parse_spec_line("512,,100,0,0,1,0,0");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "field 2 ('% of size') is empty");
  EXPECT_EQ(result.error().field(), "percent_of_size");
}

TEST(ParseSpecLine, RejectsNonNumbersInsteadOfAtoiPrefixes) {
  const auto letters = parse_spec_line("512,100,abc,0,0,1,0,0");
  ASSERT_FALSE(letters);
  EXPECT_EQ(letters.error().message(), "field 3 ('% reads'): 'abc' is not a number");
  EXPECT_EQ(letters.error().field(), "percent_reads");

  const auto prefix = parse_spec_line("512,100,100,0,12abc,1,0,0");
  ASSERT_FALSE(prefix);
  EXPECT_EQ(prefix.error().message(), "field 5 ('delay'): '12abc' is not a number");

  const auto plus = parse_spec_line("512,100,100,0,0,+1,0,0");
  ASSERT_FALSE(plus);
  EXPECT_EQ(plus.error().field(), "burst");

  const auto bad_size = parse_spec_line("4q,100,100,0,0,1,0,0");
  ASSERT_FALSE(bad_size);
  EXPECT_EQ(bad_size.error().message(), "field 1 ('size'): '4q' is not a size (e.g. 4096, 4k, 64KiB)");
}

TEST(ParseSpecLine, RejectsNegativeNumbers) {
  const auto result = parse_spec_line("512,100,100,-1,0,1,0,0");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "field 4 ('% random'): '-1' is negative");
  EXPECT_EQ(result.error().field(), "percent_random");

  const auto size = parse_spec_line("-4k,100,100,0,0,1,0,0");
  ASSERT_FALSE(size);
  EXPECT_EQ(size.error().message(), "field 1 ('size'): '-4k' is negative");
}

TEST(ParseSpecLine, RejectsValuesAbove32Bits) {
  const auto max = parse_spec_line("512,100,100,0,4294967295,1,0,0");
  ASSERT_TRUE(max) << max.error().message();
  EXPECT_EQ(max->delay_ms, 4294967295U);

  const auto over = parse_spec_line("4294967296,100,100,0,0,1,0,0");
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().message(), "field 1 ('size'): '4294967296' is too large, at most 4294967295");

  const auto huge = parse_spec_line("512,100,100,0,0,99999999999999999999999,0,0");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().field(), "burst");
  EXPECT_NE(huge.error().message().find("is too large"), std::string::npos);

  const auto suffixed = parse_spec_line("512,100,100,0,0,1,0,4G");
  ASSERT_FALSE(suffixed);
  EXPECT_EQ(suffixed.error().message(), "field 8 ('reply'): '4G' is too large, at most 4294967295");
}

TEST(ParseSpecLine, LeavesRangesToValidate) {
  const auto line = parse_spec_line("0,100,101,0,0,0,0,0");
  ASSERT_TRUE(line);
  EXPECT_FALSE(validate(AccessSpec{"X", DefaultAssignment::none, {*line}}));
}

TEST(FormatSpecLine, WritesTheIcfForm) {
  AccessSpecLine line;
  line.size_bytes = 8192;
  EXPECT_EQ(format_spec_line(line), "8192,100,67,100,0,1,0,0");
  line = AccessSpecLine{65536, 30, 100, 0, 20, 8, 4096, 512};
  EXPECT_EQ(format_spec_line(line), "65536,30,100,0,20,8,4096,512");
}

TEST(FormatSpecLine, RoundTripsThroughParse) {
  const std::vector<AccessSpecLine> lines{
      AccessSpecLine{},
      AccessSpecLine{1, 0, 0, 0, 0, 1, 0, 0},
      AccessSpecLine{4294967295U, 100, 100, 100, 4294967295U, 4294967295U, 4294967295U, 4294967295U},
      AccessSpecLine{262144, 3, 50, 0, 0, 1, 0, 0},
      AccessSpecLine{4096, 33, 67, 55, 10, 16, 512, 1024},
  };
  for (const AccessSpecLine& line : lines) {
    const auto parsed = parse_spec_line(format_spec_line(line));
    ASSERT_TRUE(parsed) << format_spec_line(line);
    EXPECT_EQ(*parsed, line) << format_spec_line(line);
  }
}

TEST(DefaultAssignment, LiteralsRoundTripCaseInsensitively) {
  EXPECT_EQ(to_string(DefaultAssignment::none), "NONE");
  EXPECT_EQ(to_string(DefaultAssignment::all), "ALL");
  EXPECT_EQ(to_string(DefaultAssignment::disk), "DISK");
  EXPECT_EQ(to_string(DefaultAssignment::network), "NET");
  EXPECT_EQ(to_string(static_cast<DefaultAssignment>(9)), "");
  EXPECT_EQ(parse_default_assignment("net"), DefaultAssignment::network);
  EXPECT_EQ(parse_default_assignment("Disk"), DefaultAssignment::disk);
  EXPECT_EQ(parse_default_assignment("ALL"), DefaultAssignment::all);
  EXPECT_EQ(parse_default_assignment("none"), DefaultAssignment::none);
  EXPECT_FALSE(parse_default_assignment("2"));
  EXPECT_FALSE(parse_default_assignment("NETWORK"));
  EXPECT_FALSE(parse_default_assignment(""));
}

}  // namespace
}  // namespace iomark::access_specs
