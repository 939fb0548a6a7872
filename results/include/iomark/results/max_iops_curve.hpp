// What every front end shows of a --find-max-iops search (docs/characterize.md#find-max-iops):
// the bound in words, and the steps as a curve of latency against IOPS. The controller's
// conclusion, the console, the history, the report and the GUI's chart share them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "iomark/results/run_results.hpp"

namespace iomark::results {

// "2 ms", "0.5 ms": a bound's limit as the user wrote it, not padded to three decimals.
[[nodiscard]] std::string limit_ms_text(double limit_ms);

// "p99 <= 2 ms"
[[nodiscard]] std::string bound_text(const MaxIopsRecord& record);

// Indices into record.steps by achieved IOPS (steps of equal IOPS in the order they ran): the
// device's curve, whichever order the search ran its steps in.
[[nodiscard]] std::vector<std::size_t> steps_by_iops(const MaxIopsRecord& record);

// Whether a step's latency is so far past the bound (more than 10 times it) that a linear
// latency axis would flatten the steps near the bound, the ones the search is about, against
// its floor.
[[nodiscard]] bool wants_log_latency_axis(const MaxIopsRecord& record) noexcept;

}  // namespace iomark::results
