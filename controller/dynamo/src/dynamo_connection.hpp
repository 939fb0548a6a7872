// A Dynamo 1.1.0 behind the controller's manager abstraction: a protocol::Connection that
// takes iomark requests (Assignment, PrepareTargets, PhaseCommand, NetworkPorts,
// InventoryRequest) and carries each out as the legacy command sequence IOmeter's GUI sends
// (docs/iometer-reference.md#wire-commands), answering with the iomark reply (Ack, NetworkPorts,
// FinalResults, Inventory, ErrorReport). Network pairs between two Dynamos follow iomark's agents'
// order: a server's port (from its SET_TARGETS echo) answers Start, and the client's SET_TARGETS
// and START wait for the controller's NetworkPorts. While it
// records, receive() polls REPORT_UPDATE once per update interval and hands back a Sample.
//
// Dynamo never speaks unasked, so all traffic happens inside send() and receive(), on the
// caller's thread, under one mutex. Every legacy receive has a deadline below the
// controller's 5 s dead-peer deadline: a Dynamo that dies, stalls or desynchronises closes
// the connection with an io_error naming it ("Dynamo 'lab1' (10.0.0.5:4021): REPORT_UPDATE:
// stalled: ...").
#pragma once

#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/legacy/wire.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/transport/legacy_socket.hpp"

namespace iomark::controller::dynamo {

using transport::Clock;
using transport::LegacySocket;

// With the 1 s update interval, a stalled Dynamo is named within 4 s of its last answer.
inline constexpr std::chrono::milliseconds kLegacyReplyDeadline{3000};
// STOP is answered only once Dynamo's workers have drained their I/Os, which on a loaded
// host (8 Dynamos on 2 cores) takes longer: a stall there is named within this.
inline constexpr std::chrono::milliseconds kStopReplyDeadline{10000};
inline constexpr std::chrono::milliseconds kUpdateInterval{1000};

class DynamoConnection final : public protocol::Connection {
 public:
  // Takes over the command channel of a logged-in Dynamo and asks REPORT_TARGETS; the
  // Inventory built from the answer is the first envelope receive() returns.
  [[nodiscard]] static Result<std::unique_ptr<DynamoConnection>> open(LegacySocket command_channel,
                                                                      legacy::ManagerInfo info);

  [[nodiscard]] const protocol::PeerInfo& peer() const noexcept override { return peer_; }
  [[nodiscard]] Result<void> send(protocol::Envelope envelope) override;
  [[nodiscard]] Result<protocol::Envelope> receive(Nanoseconds timeout) override;
  // False: nothing arrives unasked; receive() itself asks Dynamo for its figures when due.
  [[nodiscard]] bool watch(std::shared_ptr<protocol::ArrivalSignal>, std::size_t) override { return false; }
  // Sends EXIT MANAGER (Dynamo terminates), then closes.
  void close(std::string reason = "closed locally") override;
  [[nodiscard]] bool is_open() const noexcept override;

 private:
  DynamoConnection(LegacySocket socket, legacy::ManagerInfo info);

  // One legacy exchange step each; a failure closes the connection.
  [[nodiscard]] Result<void> send_message(legacy::Purpose purpose, std::int32_t data);
  [[nodiscard]] Result<void> send_block(const legacy::DataBlock& block);
  [[nodiscard]] Result<legacy::Message> receive_reply(legacy::Purpose expected);
  [[nodiscard]] Result<legacy::DataBlock> receive_block(legacy::Purpose during);
  // Sends `purpose` and checks that the reply echoes it with `expected_data`.
  [[nodiscard]] Result<void> command(legacy::Purpose purpose, std::int32_t data, std::int32_t expected_data);

  [[nodiscard]] Result<protocol::Inventory> report_targets();
  [[nodiscard]] Result<void> assign(const protocol::Assignment& assignment);
  // The Target_Spec one assigned target becomes (an end of a network pair, or a reported disk).
  [[nodiscard]] Result<legacy::TargetSpec> target_spec(const protocol::TargetAssignment& assigned) const;
  [[nodiscard]] bool reports_nic(const std::string& address) const;
  // SET_TARGETS for one worker; its echo (where a TCP server's port is). A refusal closes.
  [[nodiscard]] Result<legacy::DataBlock> set_targets(std::size_t worker, std::span<const legacy::TargetSpec> targets);
  // The relayed server ports: SET_TARGETS for each waiting client, then the deferred START.
  // Errors: not_found for a client whose port did not come (its partner is missing),
  // invalid_argument for another run's ports or a port that is not one; nothing is sent then.
  [[nodiscard]] Result<void> connect_clients(const protocol::NetworkPorts& ports);
  // PREP_DISKS for the targets that have no iobw.tst yet (docs/iometer-reference.md#one-run):
  // worker 0 gets them, sized as asked, and Dynamo fills them. True while its reply is awaited (it
  // comes when the files are full; receive() picks it up), false when nothing needed it.
  [[nodiscard]] Result<bool> start_preparing(std::uint64_t request_id, const protocol::PrepareTargets& prepare);
  [[nodiscard]] Result<std::optional<protocol::Envelope>> poll_prepared();
  // STOP_PREPARE, then the pending PREP_DISKS reply (docs/iometer-reference.md#wire-commands); the
  // PrepareTargets request it answered is dropped.
  [[nodiscard]] Result<protocol::Message> stop_preparing();
  [[nodiscard]] Result<protocol::Message> phase(const protocol::PhaseCommand& command);
  // REPORT_RESULTS or REPORT_UPDATE: Manager_Results, then one Worker_Results per worker.
  struct Counters {
    std::vector<protocol::WorkerCounters> workers;
    std::vector<protocol::CpuUsage> cpus;
    protocol::NetworkStats network;
  };
  [[nodiscard]] Result<Counters> report(legacy::Purpose purpose);
  [[nodiscard]] Result<std::optional<protocol::Envelope>> poll_update();

  // The reported target an assigned path names: "<mount> [fs]" for a directory, or the
  // device's kernel name for /dev/<name>.
  [[nodiscard]] const legacy::TargetSpec* target_for(const std::string& path) const;

  Error failure(const Error& error, std::string_view during);
  Error failure(std::string_view during, std::string message);

  mutable std::mutex mutex_;
  LegacySocket socket_;
  legacy::ManagerInfo info_;
  protocol::PeerInfo peer_;
  std::vector<legacy::TargetSpec> disks_;     // from REPORT_TARGETS
  std::vector<legacy::TargetSpec> tcp_nics_;  // from REPORT_TARGETS
  // The run's network ends (docs/iometer-reference.md#wire-network-pairs): the ports the servers
  // listen on, read from their SET_TARGETS echo and answered to Start as iomark agents do; and the
  // clients, whose SET_TARGETS waits for the controller to relay their server's port
  // (NetworkPorts), and with them START, since Dynamo starts only workers with targets.
  struct WaitingClient {
    std::size_t worker{};
    legacy::TargetSpec target;
  };
  struct NetworkEnds {
    std::uint64_t run_id{};
    std::vector<protocol::NetworkPort> listening;
    std::vector<WaitingClient> waiting_clients;
    bool start_deferred{false};
  };
  NetworkEnds network_;
  std::deque<protocol::Envelope> inbox_;
  std::optional<Error> closed_;
  std::size_t dynamo_workers_{};  // worker slots Dynamo holds
  std::size_t active_workers_{};  // of them, those this run assigned (they report results)
  // While Dynamo fills test files: the PrepareTargets request to answer and what it fills.
  struct Preparing {
    std::uint64_t request_id{};
    std::vector<std::string> paths;
    std::uint64_t bytes_total{};
  };
  std::optional<Preparing> preparing_;
  // While I/O runs: the run, the sample sequence and when the next REPORT_UPDATE is due.
  std::optional<std::uint64_t> io_run_id_;
  protocol::SamplePhase sample_phase_{protocol::SamplePhase::ramp_up};
  std::uint64_t sample_sequence_{};
  Clock::time_point io_started_{};
  Clock::time_point last_update_{};
};

}  // namespace iomark::controller::dynamo
