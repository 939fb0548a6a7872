// `iomark-agent run-local`: one run on this host without a controller, so the engine can be
// measured and used alone.
#pragma once

#include <string>
#include <vector>

#include "iomark/run_options/run_flags.hpp"
#include "iomark/app_runtime/stop_signals.hpp"

namespace iomark::agent_app {

struct RunLocalOptions {
  run_options::RunFlags run;  // the shared run flags; --qd takes one value here
  bool allow_destructive{false};
};

// Runs and prints the summary; returns the process exit code (iomark::ExitCode; after a
// SIGINT or SIGTERM, which ends the run early, exit_code_for_signal() once the summary and the
// results files, marked aborted, are written).
int run_local(const RunLocalOptions& options, app_runtime::StopSignals& stop_signals);

}  // namespace iomark::agent_app
