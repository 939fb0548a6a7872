// What the console says of a --find-max-iops search: one line per run as it ends, and under
// the summary the curve (every run by IOPS, with its latency) and the chosen point.
#pragma once

#include <string>

#include "iomark/results/run_results.hpp"

namespace iomark::cli_text {

// "search run 5: QD 8 at 8444 IOPS asked: 8440 IOPS, p99 0.643 ms: over 0.6 ms"
// or "search run 2: QD 2: 6667 IOPS, p99 0.300 ms: within 0.6 ms".
[[nodiscard]] std::string search_step_line(const results::MaxIopsRecord& search);

// The curve as a table sorted by IOPS (the chosen run marked), then
// "most IOPS within p99 <= 2 ms: <conclusion>".
[[nodiscard]] std::string search_report(const results::MaxIopsRecord& search);

}  // namespace iomark::cli_text
