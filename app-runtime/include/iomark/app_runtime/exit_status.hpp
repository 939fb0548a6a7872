// How a program ends on a problem it can name: the error is logged once, at error level, and
// main() returns the exit code that says what kind of problem it was (common/exit_code.hpp).
#pragma once

#include "iomark/common/exit_code.hpp"
#include "iomark/common/result.hpp"

namespace iomark::app_runtime {

[[nodiscard]] int exit_with(ExitCode code, const Error& error);

// A file or value that cannot be used (a plan, a key, a target, a size).
[[nodiscard]] inline int bad_input(const Error& error) { return exit_with(ExitCode::bad_input, error); }

// A command-line value the flag table's validators cannot judge alone.
[[nodiscard]] inline int usage_error(const Error& error) { return exit_with(ExitCode::usage, error); }

}  // namespace iomark::app_runtime
