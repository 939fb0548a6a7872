// What the console says of a series repeated in rounds until a figure is steady
// (--steady-state): one line per round, and the verdict under the summary table.
#pragma once

#include <string>

#include "iomark/controller/series_runner.hpp"

namespace iomark::cli_text {

// "round 6/25: 41275 IOPS; rounds 2-6: range 3.1%, slope 1.2% of the average: steady"
// or "...: not steady (range 31.2% of the average (limit 20%))".
[[nodiscard]] std::string round_line(const controller::SteadyStateProgress& progress);

// "steady state (iops): reached in round 6, average 41275 over rounds 2-6" or "steady state
// (iops): not reached in 25 rounds: <the rule's reason>".
[[nodiscard]] std::string verdict_line(const controller::SteadyStateProgress& progress);

}  // namespace iomark::cli_text
