// What every `iomark` verb shares: exit codes, reading input files, reporting errors.
#pragma once

#include <string>

#include "iomark/app_runtime/exit_status.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/common/result.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/run_options/run_flags.hpp"

namespace iomark::cli {

// Reads a whole file as text; the error names the path and the reason.
[[nodiscard]] Result<std::string> read_text_file(const std::string& path);

using app_runtime::bad_input;
using app_runtime::usage_error;

// What every verb that talks to managers connects with: this host's name and build and,
// unless `embedded` (the agent in this process: no key or TLS between us), the pre-shared
// key (none with --insecure) and the TLS files of `connection`. Errors: the key's or TLS's.
[[nodiscard]] Result<controller::RegistryOptions> registry_options(const run_options::ConnectionFlags& connection,
                                                                   bool embedded);

// The exit code for managers that could not be reached or refused us (see ExitCode), after
// logging why.
int connect_failure(const Error& error);

}  // namespace iomark::cli
