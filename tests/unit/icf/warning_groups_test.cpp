// Import warnings collapsed by kind, and the line each group prints as.
#include "iomark/icf/warning_groups.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace iomark::icf {
namespace {

TEST(WarningGroups, QuotedNamesAsideAlikeWarningsFormOneGroupInFirstSeenOrder) {
  const std::vector<Warning> warnings{
      {48, "placeholder line (size 0, 0 % of size) in 'Default' dropped"},
      {50, "blank line ignored"},
      {53, "placeholder line (size 0, 0 % of size) in '512B; 100% Read; 0% random' dropped"},
      {148, "placeholder line (size 0, 0 % of size) in 'All in one' dropped"},
  };
  const auto groups = group_warnings(warnings);
  ASSERT_EQ(groups.size(), 2U);
  EXPECT_EQ(groups[0], (WarningGroup{warnings[0], 3, 148}));
  EXPECT_EQ(groups[1], (WarningGroup{warnings[1], 1, 50}));
  EXPECT_EQ(describe(groups[0]), "placeholder line (size 0, 0 % of size) in 'Default' dropped (3 alike, lines 48 to 148)");
  EXPECT_EQ(describe(groups[1]), "blank line ignored");
}

TEST(WarningGroups, DifferentTextOutsideQuotesStaysApart) {
  const std::vector<Warning> warnings{{5, "unknown section 'NOTES' ignored"}, {9, "unknown key 'X' skipped"}};
  EXPECT_EQ(group_warnings(warnings).size(), 2U);
  EXPECT_TRUE(group_warnings({}).empty());
}

// A plan whose 21 specs each carry a placeholder line: one group of 21, read from a file
// written here so the count is known.
TEST(WarningGroups, TwentyOnePlaceholderLinesOfALegacyPlanAreOneGroup) {
  std::ostringstream text;
  text << "Version 1.1.0 \n'ACCESS SPECIFICATIONS ===\n";
  for (int i = 1; i <= 21; ++i) {
    text << "'Access specification name,default assignment\n\tspec " << i << ",NONE\n"
         << "'size,% of size,% reads,% random,delay,burst,align,reply\n\t4096,100,0,0,0,1,0,0\n\t0,0,0,0,0,0,0,0\n";
  }
  text << "'END access specifications\nVersion 1.1.0 \n";
  const auto imported = read_icf(text.str(), "many.icf");
  ASSERT_TRUE(imported.has_value()) << imported.error().describe();
  ASSERT_EQ(imported->warnings.size(), 21U);
  const auto groups = group_warnings(imported->warnings);
  ASSERT_EQ(groups.size(), 1U);
  EXPECT_EQ(groups[0].count, 21U);
  EXPECT_EQ(groups[0].first.line, 7U);
  EXPECT_EQ(groups[0].last_line, 7U + 20 * 5);
}

}  // namespace
}  // namespace iomark::icf
