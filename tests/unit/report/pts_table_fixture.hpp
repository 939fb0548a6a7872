// A PTS IOPS table the report tests share: 100/0 and 0/100 by 64 KiB and 4 KiB, in PTS-E's
// order (large blocks first), averaged over the steady window of rounds 3-7; no run of 0/100
// with 64 KiB counted.
#pragma once

#include "iomark/results/pts_iops_table.hpp"

namespace iomark::report {

inline results::PtsIopsTable two_by_two_table() {
  return results::PtsIopsTable{.read_percents = {100, 0},
                               .block_bytes = {65536, 4096},
                               .iops = {{1200.4, 25000.6}, {std::nullopt, 9000}},
                               .first_round = 3,
                               .last_round = 7,
                               .steady = true};
}

}  // namespace iomark::report
