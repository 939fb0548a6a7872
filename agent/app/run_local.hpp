// `iomark-agent run-local`: one run on this host without a controller, so the engine can be
// measured and used alone (issue 3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iomark/app_runtime/stop_signals.hpp"

namespace iomark::agent_app {

struct RunLocalOptions {
  std::vector<std::string> targets;
  std::string spec_name;  // a built-in spec, or empty when spec_line is given
  std::string spec_line;  // size,%size,%read,%random,delay,burst,align,reply
  std::uint32_t queue_depth{1};
  std::uint32_t workers{1};
  std::uint32_t ramp_s{0};
  std::uint32_t time_s{10};
  std::string engine{"auto"};
  std::optional<std::uint64_t> seed;
  std::string test_file_size{"1G"};  // size of iobw.tst in a directory target
  std::string data_pattern{"repeating"};
  bool buffered{false};
  bool allow_destructive{false};
  std::vector<std::string> cpus;  // CPUs to pin workers to, in order; empty = one per CPU
  std::string results_csv;
  std::string results_json;
};

// Runs and prints the summary; returns the process exit code (iomark::ExitCode; after a
// SIGINT or SIGTERM, which ends the run early, exit_code_for_signal() once the summary and the
// results files, marked aborted, are written).
int run_local(const RunLocalOptions& options, app_runtime::StopSignals& stop_signals);

}  // namespace iomark::agent_app
