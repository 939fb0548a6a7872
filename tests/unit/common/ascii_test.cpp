// The one home of ASCII case-insensitive comparison and trimming (common/ascii.hpp).
#include "iomark/common/ascii.hpp"

#include <gtest/gtest.h>

#include <clocale>
#include <string>

namespace iomark::ascii {
namespace {

TEST(Ascii, ComparesLettersWithoutCase) {
  EXPECT_TRUE(iequals("NUMBER_OF_CPUS", "number_of_cpus"));
  EXPECT_TRUE(iequals("'End Manager", "'END manager"));
  EXPECT_TRUE(iequals("", ""));
  EXPECT_FALSE(iequals("Idle", "Idle "));
  EXPECT_FALSE(iequals("Idle", "Idl"));
  EXPECT_FALSE(iequals("a", "b"));
  // Only A-Z fold: '@' (0x40) and '`' (0x60) sit next to the letters and stay apart.
  EXPECT_FALSE(iequals("@", "`"));
  EXPECT_FALSE(iequals("[", "{"));
}

TEST(Ascii, LeavesBytesOutsideAsciiAsTheyAre) {
  // Latin-1 'É' (0xC9) and 'é' (0xE9): a Latin-1 locale's tolower() would make them equal.
  EXPECT_FALSE(iequals("\xC9", "\xE9"));
  // UTF-8 names match byte for byte only.
  EXPECT_TRUE(iequals("d\xC3\xA9p\xC3\xB4t", "D\xC3\xA9P\xC3\xB4T"));
  EXPECT_FALSE(iequals("\xC3\x89", "\xC3\xA9"));  // É and é in UTF-8
}

TEST(Ascii, IgnoresTheLocale) {
  // Decided at compile time, where no locale exists.
  static_assert(iequals("I", "i") && !iequals("\xC9", "\xE9") && to_lower('\xDD') == '\xDD');
  // And at run time under single-byte locales whose tolower() folds more than A-Z (Latin-1
  // maps 0xC9 to 0xE9; Turkish maps I to dotless i). Each is used where it is installed.
  const std::string saved = std::setlocale(LC_ALL, nullptr);
  int tried = 0;
  for (const char* name : {"de_DE.ISO-8859-1", "fr_FR.ISO-8859-1", "tr_TR.ISO-8859-9", "en_US.ISO-8859-1"}) {
    if (std::setlocale(LC_ALL, name) == nullptr) continue;
    ++tried;
    EXPECT_TRUE(iequals("LINEAR", "linear")) << name;
    EXPECT_TRUE(iequals("I", "i")) << name;
    EXPECT_FALSE(iequals("\xC9", "\xE9")) << name;
    EXPECT_EQ(to_lower(std::string_view("QUIT\xDD")), "quit\xDD") << name;
  }
  std::setlocale(LC_ALL, saved.c_str());
  if (tried == 0) GTEST_SKIP() << "no single-byte Latin-1 or Turkish locale installed (locale -a); the static_assert holds";
}

TEST(Ascii, MatchesPrefixesWithoutCase) {
  EXPECT_TRUE(istarts_with("'Ramp Up Time (s)", "'ramp up time"));
  EXPECT_TRUE(istarts_with("abc", ""));
  EXPECT_TRUE(istarts_with("abc", "ABC"));
  EXPECT_FALSE(istarts_with("ab", "abc"));
  EXPECT_FALSE(istarts_with("xabc", "abc"));
}

TEST(Ascii, TrimsTheCLocalesWhiteSpaceAtBothEnds) {
  EXPECT_EQ(trim(" \t\r\n\v\fvalue \t\r\n\v\f"), "value");
  EXPECT_EQ(trim("\tin  between\r"), "in  between");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim(" \t\r\n"), "");
  EXPECT_EQ(trim("x"), "x");
  // Non-breaking space (0xA0, UTF-8 C2 A0) is not white space here.
  EXPECT_EQ(trim("\xC2\xA0x\xC2\xA0"), "\xC2\xA0x\xC2\xA0");
  // A view into the argument, not a copy.
  constexpr std::string_view text = "  kept  ";
  EXPECT_EQ(trim(text).data(), text.data() + 2);
}

TEST(Ascii, ChangesTheCaseOfLettersOnly) {
  EXPECT_EQ(to_lower(std::string_view("4 KiB; 100% Read")), "4 kib; 100% read");
  EXPECT_EQ(to_upper(std::string_view("linear-x_1")), "LINEAR-X_1");
  EXPECT_EQ(to_lower('Z'), 'z');
  EXPECT_EQ(to_lower('['), '[');
  EXPECT_EQ(to_upper('a'), 'A');
  EXPECT_EQ(to_upper('{'), '{');
  static_assert(iequals("Disk", "DISK") && trim(" a ") == "a");
}

}  // namespace
}  // namespace iomark::ascii
