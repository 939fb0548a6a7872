#include "iomark/cli_text/pts_text.hpp"

#include <gtest/gtest.h>

namespace iomark::cli_text {
namespace {

TEST(PtsText, ARowPerMixAColumnPerBlockSizeAndTheRoundsAveraged) {
  results::PtsIopsTable table{.read_percents = {100, 0},
                              .block_bytes = {1048576, 4096, 512},
                              .iops = {{900.4, 250000, 260000}, {450, std::nullopt, 120000.6}},
                              .first_round = 3,
                              .last_round = 7,
                              .steady = true};
  EXPECT_EQ(pts_table_text(table),
            "PTS IOPS, average of rounds 3-7 (the steady-state window):\n"
            "R/W    1 MiB   4 KiB   512 B\n"
            "-----  -----  ------  ------\n"
            "100/0    900  250000  260000\n"
            "0/100    450       -  120001\n");
  table.steady = false;
  table.first_round = table.last_round = 1;
  EXPECT_EQ(pts_table_text(table).substr(0, 41), "PTS IOPS, average of round 1 (not steady)");
  table.first_round = table.last_round = 0;
  EXPECT_EQ(pts_table_text(table), "PTS IOPS: no round ran\n");
}

TEST(PtsText, PreconditioningAndTheMatrixInALine) {
  EXPECT_EQ(precondition_line({.passes = 2, .block_bytes = 131072, .targets = {"db1: /dev/sdb", "db2: /dev/sdc"}}),
            "preconditioned: every target written whole 2 times in 128 KiB sequential writes before the first run "
            "(db1: /dev/sdb, db2: /dev/sdc)");
  EXPECT_EQ(precondition_line({.passes = 1, .block_bytes = 131072, .targets = {}}),
            "preconditioned: every target written whole 1 time in 128 KiB sequential writes before the first run");
  EXPECT_EQ(precondition_line({.passes = 2,
                               .block_bytes = 0,
                               .targets = {"db1: /dev/sdb"},
                               .spec = access_specs::AccessSpec{"4K random write", {}, {{4096, 100, 0, 100, 0, 1, 0, 0}}}}),
            "preconditioned: every target written whole 2 times in the writes of '4K random write' before the first run "
            "(db1: /dev/sdb)");
  EXPECT_EQ(pts_matrix_line({.read_percents = {100, 95, 65, 50, 35, 5, 0},
                             .block_bytes = {1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512}}),
            "PTS IOPS: 7 mixes (100/0 .. 0/100) x 8 block sizes (1 MiB .. 512 B) a round");
  EXPECT_EQ(pts_matrix_line({.read_percents = {0}, .block_bytes = {4096}}),
            "PTS IOPS: 1 mix (0/100) x 1 block size (4 KiB) a round");
}

}  // namespace
}  // namespace iomark::cli_text
