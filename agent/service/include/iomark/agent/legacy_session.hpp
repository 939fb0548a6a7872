// iomark-agent speaking IOmeter 1.1.0's legacy protocol (`--protocol iometer`):
// it logs in to an IOmeter GUI as Dynamo does and answers every command
// (docs/iometer-reference.md#wire-commands) with the exact number and order of blocks Dynamo 1.1.0
// sends (IOManager.cpp, Process_Message), driving iomark's own RunSession. The legacy wire has no
// framing, so a missing or extra block would desynchronise the GUI: each handler below sends
// exactly what Dynamo sends, even when the request fails (then with `data` = 0). Each field of
// each block is read as Dynamo reads it, so every IOmeter GUI drives the agent: what is read,
// ignored or refused, field by field, is docs/iometer-gui-messages.md.
//
// What differs from Dynamo, on purpose:
// - REPORT_TARGETS lists only what the operator's --allow permits (legacy_targets.hpp), and
//   opening a target goes through the same safety policy as on the iomark protocol;
// - every index and count from the GUI is checked: out of range gets `data` = 0, never a
//   write outside a table; an unknown purpose or a block cut short ends the session with a
//   named error (Dynamo stops too, or hangs);
// - tick counters are nanoseconds (timer resolution 1e9 in Manager_Info).
// Not thread-safe: one thread serves one command channel at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/agent/legacy_targets.hpp"
#include "iomark/agent/run_session.hpp"
#include "iomark/common/result.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/wire.hpp"
#include "iomark/targets/safety_policy.hpp"
#include "iomark/transport/legacy_socket.hpp"

namespace iomark::agent {

struct LegacyAgentOptions {
  std::string manager_name;
  std::string own_address;  // -m: where the GUI connects back; empty = the GUI's own host
  targets::SafetyPolicy policy;
  EngineChoice engine;  // nullopt = probe and calibrate, as on the iomark protocol
  // How long the rest of a block may take once its first byte came, how long a follow-up
  // block (SET_TARGETS, SET_ACCESS) may take to start, and how long a reply may take to
  // leave. The wait for the next command itself has no deadline: the GUI may idle.
  std::chrono::milliseconds block_deadline{5000};
  // How long the GUI may take to answer the login and to connect back (its own login
  // receive times out after 10 s).
  std::chrono::milliseconds login_deadline{10000};
  // Told about each run's engine choice and the session's milestones (logged at `info`).
  std::function<void(const std::string&)> notice;
  // Told about each command the agent refused or that failed, naming the message, the field
  // and the value (logged at `error`); the GUI got the answer Dynamo gives a failure.
  std::function<void(const std::string&)> refusal;
  // Told about every message and data block in and out: purpose, data, what the block holds
  // (counts, sizes). Unset: nothing is described (building the text costs).
  std::function<void(const std::string&)> trace;
};

// Logs in as Dynamo (docs/iometer-reference.md#login): opens the command port, dials the GUI at
// host:port, sends LOGIN (version code 0x01000100) and the Manager_Info data block, reads
// the reply and accepts the GUI's connect-back on the command port. Errors: io_error (the
// GUI is not there, closed, or did not connect back within login_deadline), unsupported
// (the GUI answered WRONG_VERSION), parse_error (any other reply), cancelled (`stop` was
// requested: every wait ends within half a second of it).
[[nodiscard]] Result<transport::LegacySocket> legacy_login(const LegacyAgentOptions& options, const std::string& gui_host,
                                                           std::uint16_t gui_port, std::stop_token stop = {});

enum class LegacyEnd : std::uint8_t {
  exit_manager,  // EXIT MANAGER: the agent should terminate
  reset,         // RESET: log in again
  closed,        // the GUI closed the command channel with no test running (after the results)
  stopped,       // a stop was requested (SIGTERM, SIGINT)
};

class LegacySession {
 public:
  explicit LegacySession(LegacyAgentOptions options);
  ~LegacySession();
  LegacySession(const LegacySession&) = delete;
  LegacySession& operator=(const LegacySession&) = delete;

  // Serves commands until EXIT MANAGER, RESET, a close of the channel between commands with
  // no test running (START answered, STOP not yet), or `stop` (checked at least once a second
  // while waiting for a command, and while test files are prepared). Errors: io_error (the
  // channel broke in the middle of a message or of a test, or a block did not arrive whole
  // in time), parse_error (an unknown purpose, or a message other than STOP_PREPARE while
  // preparing). Workers and a running test are dropped on every way out.
  [[nodiscard]] Result<LegacyEnd> serve(transport::LegacySocket& channel, std::stop_token stop = {});

 private:
  struct WorkerSlot {
    std::vector<legacy::TargetSpec> targets;  // as the GUI assigned them (SET_TARGETS order)
    std::vector<std::string> paths;           // where each target is on this host
    access_specs::AccessSpec spec;            // no lines = idle
    // Dynamo reports results for a worker with targets and a non-idle spec (Report_Results).
    [[nodiscard]] bool active() const noexcept { return !targets.empty() && !spec.lines.empty(); }
  };

  [[nodiscard]] Result<std::optional<LegacyEnd>> handle(const legacy::Message& message);
  [[nodiscard]] Result<void> report_targets();
  [[nodiscard]] Result<void> set_targets(std::int32_t who);
  [[nodiscard]] Result<void> set_access(std::int32_t who);
  [[nodiscard]] Result<void> prepare_disks();
  [[nodiscard]] std::int32_t start_test();
  [[nodiscard]] Result<void> report_results(bool since_last_update);
  void remove_workers(std::int32_t who);

  [[nodiscard]] Result<legacy::DataBlock> receive_block();
  [[nodiscard]] Result<void> reply(legacy::Purpose purpose, std::int32_t data);
  // `what` says what the block holds, for the trace.
  [[nodiscard]] Result<void> send_block(const legacy::DataBlock& block, std::string_view what);
  // The workers `who` names (an index or ALL_WORKERS); empty when it names none.
  [[nodiscard]] std::vector<WorkerSlot*> addressed(std::int32_t who);
  void tell(const std::string& text) const;
  void refuse(const std::string& text) const;
  void refuse_no_such_worker(std::string_view command, std::int32_t who) const;
  [[nodiscard]] bool tracing() const noexcept { return static_cast<bool>(options_.trace); }
  void trace(const std::string& text) const;
  // START answered and STOP not yet: a close of the channel now is a lost GUI.
  [[nodiscard]] bool test_running() const noexcept { return run_ != nullptr && !run_stopped_; }

  LegacyAgentOptions options_;
  transport::LegacySocket* channel_{nullptr};
  std::stop_token stop_;
  std::vector<LegacyTarget> listed_;  // the last REPORT_TARGETS answer
  std::vector<WorkerSlot> workers_;
  std::unique_ptr<RunSession> run_;
  bool run_stopped_{false};  // STOP came: run_'s final counters are ready
  std::uint64_t record_on_ns_{};
  // REPORT_UPDATE sends what was counted since the previous one: per active worker, the
  // counters and window end it reported last.
  std::vector<std::vector<IoCounters>> reported_counters_;
  std::vector<std::uint64_t> reported_until_ns_;
};

}  // namespace iomark::agent
