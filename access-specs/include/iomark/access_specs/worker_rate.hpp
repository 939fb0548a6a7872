// Whether a worker's rate (Worker::rate_iops) lies within a worker's limits, one check for the
// plan's validation, the .icf reader and the GUI's editor.
#pragma once

#include "iomark/common/result.hpp"

namespace iomark::access_specs {

// Errors: invalid_argument, "a rate of R I/Os per second is outside 0.01 to 1e+08" (false for NaN).
[[nodiscard]] Result<void> check_worker_rate(double rate_iops);

}  // namespace iomark::access_specs
