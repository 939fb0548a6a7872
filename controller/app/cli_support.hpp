// What every `iomark` verb shares: exit codes, reading input files, reporting errors.
#pragma once

#include <string>

#include "iomark/common/exit_code.hpp"
#include "iomark/common/result.hpp"

namespace iomark::cli {

// Reads a whole file as text; the error names the path and the reason.
[[nodiscard]] Result<std::string> read_text_file(const std::string& path);

// Logs "error: <error>" and returns the exit code for bad input.
int report(const Error& error);

}  // namespace iomark::cli
