#include "iomark/cli_text/text_table.hpp"

#include <gtest/gtest.h>

namespace iomark::cli_text {
namespace {

TEST(TextTable, SizesColumnsAndAlignsNumbersRight) {
  TextTable table({{"spec"}, {"IOPS", Align::right}});
  table.add_row({"Database", "12345.6"});
  table.add_row({"VM", "7.0"});
  EXPECT_EQ(table.render(),
            "spec         IOPS\n"
            "--------  -------\n"
            "Database  12345.6\n"
            "VM            7.0\n");
}

TEST(TextTable, PadsShortRowsAndDropsExtraCells) {
  TextTable table({{"a"}, {"b"}});
  table.add_row({"1"});
  table.add_row({"2", "3", "ignored"});
  EXPECT_EQ(table.render(), "a  b\n-  -\n1  \n2  3\n");
}

TEST(FormatFixed, RoundsToTheGivenDecimals) {
  EXPECT_EQ(format_fixed(1234.56, 1), "1234.6");
  EXPECT_EQ(format_fixed(0.5, 0), "0");  // round half to even, as printf does
  EXPECT_EQ(format_fixed(2.0, 3), "2.000");
}

}  // namespace
}  // namespace iomark::cli_text
