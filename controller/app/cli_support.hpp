// What every `iomark` verb shares: exit codes, reading input files, reporting errors.
#pragma once

#include <string>

#include "iomark/common/exit_code.hpp"
#include "iomark/common/result.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/run_options/run_flags.hpp"

namespace iomark::cli {

// Reads a whole file as text; the error names the path and the reason.
[[nodiscard]] Result<std::string> read_text_file(const std::string& path);

// Logs "error: <error>" and returns the exit code for bad input.
int report(const Error& error);
// Logs a bad command-line value the flag table's validators cannot see alone; returns ExitCode::usage.
int usage_error(const Error& error);

// What every verb that talks to managers connects with: this host's name and build and,
// unless `embedded` (the agent in this process: no key or TLS between us), the pre-shared
// key (none with --insecure) and the TLS files of `connection`. Errors: the key's or TLS's.
[[nodiscard]] Result<controller::RegistryOptions> registry_options(const run_options::ConnectionFlags& connection,
                                                                   bool embedded);

// The exit code for managers that could not be reached or refused us (see ExitCode), after
// logging why.
int connect_failure(const Error& error);

}  // namespace iomark::cli
