// What every `iomark` verb shares: exit codes, reading input files, reporting errors.
#pragma once

#include <string>

#include "iomark/common/result.hpp"

namespace iomark::cli {

// Exit codes scripts can rely on.
enum class ExitCode : int { ok = 0, failure = 1, usage = 2, bad_input = 3 };

// Reads a whole file as text; the error names the path and the reason.
[[nodiscard]] Result<std::string> read_text_file(const std::string& path);

// Prints "iomark: <error>" on stderr and returns the exit code for bad input.
int report(const Error& error);

}  // namespace iomark::cli
