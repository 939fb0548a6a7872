// What the console prints at the end of `iomark pts iops` (docs/characterize.md#pts-iops): the
// IOPS of every block size and read/write mix, averaged over the rounds the steady state was
// judged on.
#pragma once

#include <string>

#include "iomark/results/pts_iops_table.hpp"

namespace iomark::cli_text {

// "PTS IOPS, average of rounds 3-7 (the steady-state window):", then a row per mix
// ("R/W") and a column per block size; "-" where no run of the cell is in those rounds.
[[nodiscard]] std::string pts_table_text(const results::PtsIopsTable& table);

// "preconditioned: every target written whole 2 times in 128 KiB sequential writes before the
// first run (db1: /dev/sdb, db2: /dev/sdb)".
[[nodiscard]] std::string precondition_line(const results::PreconditionRecord& record);

// "PTS IOPS: 7 mixes (100/0 .. 0/100) x 8 block sizes (1 MiB .. 512 B) a round".
[[nodiscard]] std::string pts_matrix_line(const results::PtsIopsRecord& record);

}  // namespace iomark::cli_text
