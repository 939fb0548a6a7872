// A simulated fleet: N protocol-exact iomark agents in one process, for benchmarks and tests
// of the controller (and the GUI) at hundreds or thousands of hosts on one machine.
//
// Each simulated agent dials the controller over real TCP (transport::dial_async), goes
// through the real Hello and key (or TLS) handshake, sends a real Inventory and answers the
// controller's requests as an agent does: Assignment, PrepareTargets, every PhaseCommand
// (start, begin I/O, record on/off, stop -> FinalResults, abort) and InventoryRequest. From
// begin I/O on it pushes one Sample per interval, numbered 1, 2, 3... per run, built from
// synthetic counters through the agent's own sample code (agent/sample_counters.hpp): per
// worker and target of the assignment, so 16 workers x 1 target each give the controller the
// samples 16 real workers would. No I/O is done; each target's latency histogram has
// `histogram_buckets` non-empty buckets (real histograms are sparse too).
//
// Threads: one shared transport I/O thread carries every connection (handshakes, heartbeats,
// frames) and one thread serves every agent (requests, samples). Nothing else: a thousand
// agents cost two threads, a socket and a session buffer each.
//
// File descriptors: one per agent; start() raises RLIMIT_NOFILE's soft limit to the hard
// limit and fails (invalid_argument) when `agents` plus a margin still do not fit.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/protocol/auth.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::sim_fleet {

struct FleetOptions {
  transport::HostPort controller;          // where `iomark run --listen` listens
  std::optional<protocol::AuthKey> key;    // nullopt: --insecure (the controller must agree)
  std::shared_ptr<const transport::TlsCredentials> tls{};  // mutual TLS; null: plain TCP
  std::size_t agents{64};
  std::size_t first_index{0};              // agents are named "<prefix>NNNN" from this index on
  std::string name_prefix{"sim"};
  // Synthetic load per target of the assignment, per second of the run.
  std::uint64_t ios_per_second{50};
  std::uint32_t bytes_per_io{512};
  // Non-empty buckets of each target's latency histogram per sample (1..64): the sparsity of
  // what goes on the wire and what the controller merges.
  std::uint32_t histogram_buckets{8};
  Nanoseconds sample_interval{std::chrono::seconds(1)};
  // Faults: the last `drop_agents` agents close their connection abruptly (as a killed agent)
  // after sending `drop_after_samples` recording samples of their first run.
  std::size_t drop_agents{0};
  std::uint64_t drop_after_samples{2};
};

struct FleetCounts {
  std::size_t dialling{};    // handshakes still under way
  std::size_t connected{};   // established and not closed
  std::size_t refused{};     // failed handshakes (refusals() says why)
  std::size_t dropped{};     // closed on purpose (drop_agents) or by the controller
  std::uint64_t samples_sent{};
  std::uint64_t final_results_sent{};
  std::uint64_t runs_started{};  // begin I/O commands obeyed, over all agents
};

class SimFleet {
 public:
  // Starts dialling every agent at once and returns without waiting (a login storm when the
  // controller already listens). Errors: invalid_argument for options out of range or too
  // few file descriptors; io_error when a thread cannot be started.
  [[nodiscard]] static Result<std::unique_ptr<SimFleet>> start(FleetOptions options);

  SimFleet(const SimFleet&) = delete;
  SimFleet& operator=(const SimFleet&) = delete;
  ~SimFleet();  // stop()

  // Waits until no handshake is under way, at most `timeout`. Errors: io_error naming how many
  // are still dialling, or, when some were refused, the first refusal.
  [[nodiscard]] Result<void> wait_established(Nanoseconds timeout);

  [[nodiscard]] FleetCounts counts() const;
  [[nodiscard]] std::vector<Error> refusals() const;
  // The soft RLIMIT_NOFILE after start() raised it.
  [[nodiscard]] std::uint64_t file_descriptor_limit() const noexcept;

  // Closes every connection (the controller sees the agents leave) and stops the threads.
  // Idempotent.
  void stop();

 private:
  struct State;
  explicit SimFleet(std::unique_ptr<State> state) noexcept;
  std::unique_ptr<State> state_;
};

}  // namespace iomark::sim_fleet
