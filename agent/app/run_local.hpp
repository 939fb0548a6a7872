// `iomark-agent run-local`: one run on this host without a controller, so the engine can be
// measured and used alone (issue 3).
#pragma once

#include <string>
#include <vector>

#include "iomark/run_options/run_flags.hpp"

namespace iomark::agent_app {

struct RunLocalOptions {
  run_options::RunFlags run;  // the shared run flags; --qd takes one value here
  bool allow_destructive{false};
  std::vector<std::string> cpus;  // CPUs to pin workers to, in order; empty = one per CPU
};

// Runs and prints the summary; returns the process exit code (0, 1 failure, 3 bad input).
int run_local(const RunLocalOptions& options);

}  // namespace iomark::agent_app
