// How a series' targets were preconditioned, in the words every front end shows
// (docs/characterize.md#preconditioning): the console, the history and the report.
#pragma once

#include <string>

#include "iomark/results/run_results.hpp"

namespace iomark::results {

// "128 KiB sequential writes", or "the writes of '4K random write'" for --precondition-spec.
[[nodiscard]] std::string precondition_writes_text(const PreconditionRecord& record);

}  // namespace iomark::results
