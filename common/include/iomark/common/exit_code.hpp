// The exit codes of every iomark program (iomark, iomark-agent, iomark-gui's command line).
// Each means one thing, so scripts and the agent's systemd unit can act on them: the unit
// restarts on `cannot_connect` (a busy port, a controller not up yet) and never on `usage`,
// `bad_input` or `refused` (a wrong key does not fix itself).
#pragma once

#include <csignal>

namespace iomark {

enum class ExitCode : int {
  ok = 0,              // everything asked for was done
  run_failed = 1,      // a run or the series failed or stopped early (results hold what was measured)
  usage = 2,           // the command line does not parse (unknown flag, bad value, missing argument)
  bad_input = 3,       // a file or value could not be used: plan, key, certificate, target, size
  cannot_connect = 4,  // a peer cannot be reached, or a port cannot be bound: may fix itself
  refused = 5,         // the peer refused the session: wrong key, auth mode, version, certificate
};

// A run ended by SIGINT or SIGTERM exits as a shell reports a process killed by it
// (130, 143), after writing its results: `timeout` and scripts see why it ended.
[[nodiscard]] constexpr int exit_code_for_signal(int signal_number) noexcept { return 128 + signal_number; }

[[nodiscard]] constexpr int to_int(ExitCode code) noexcept { return static_cast<int>(code); }

}  // namespace iomark
