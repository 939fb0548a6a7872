// Human-readable descriptions of plans and specs for the CLI (`iomark icf show`,
// `iomark specs show`). Text only; the caller decides where it goes.
#pragma once

#include <string>

#include "iomark/access_specs/test_plan.hpp"

namespace iomark::cli_text {

// Setup (run time, ramp-up, test type, cycling with the runs it makes), access specs as
// tables, and the manager -> worker -> target topology with each worker's settings.
[[nodiscard]] std::string describe_plan(const access_specs::TestPlan& plan);

// One spec: its lines as a table with the IOmeter captions and units.
[[nodiscard]] std::string describe_spec(const access_specs::AccessSpec& spec);

}  // namespace iomark::cli_text
