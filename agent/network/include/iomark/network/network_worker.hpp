// A network worker: one thread running one end of a TCP pair
// (docs/iometer-reference.md#workers-and-pairs) with the same life cycle as a disk worker
// (agent/service/worker.hpp):
//   create() [a server listens from here on] -> set_peer_port() [client] -> start() ->
//   record_on() -> record_off() -> stop() -> results()
//
// One transfer is in flight at a time (IOmeter runs network workers at depth 1): a send is
// complete when the kernel took its last byte, a receive when its last byte came. An I/O
// counts when it was issued while recording; a connection (Test Connection Rate) counts when
// it opened and closed while recording, its time from the start of the open to the close.
// The peer closing before record_off() is the worker's failure(), naming the peer and the
// target; after record_off() it is the normal end of a run.
//
// The worker thread allocates nothing per transfer and takes a lock only when a snapshot was
// asked for; other threads talk to it through atomics.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/io_counters.hpp"
#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/network/connection_schedule.hpp"
#include "iomark/network/tcp_socket.hpp"
#include "iomark/network/transfer_sequence.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::network {

struct NetworkWorkerOptions {
  std::string name;
  access_specs::AccessSpec spec;
  protocol::NetworkEndpoint endpoint;
  std::uint64_t seed{};  // the same at both ends of the pair
  bool test_connection_rate{false};
  std::uint32_t transactions_per_connection{1};
};

struct NetworkWorkerResults {
  Nanoseconds window{};  // recording window so far (live) or in total
  WorkerIoCounters counters;
  std::uint64_t refused_connections{};  // from another address or without the proof
};

class NetworkWorker {
 public:
  // Checks the spec; a server opens its listener on endpoint.local_address.
  [[nodiscard]] static Result<std::unique_ptr<NetworkWorker>> create(NetworkWorkerOptions options);
  NetworkWorker(const NetworkWorker&) = delete;
  NetworkWorker& operator=(const NetworkWorker&) = delete;
  ~NetworkWorker();  // stops and joins

  // Server: the port it listens on.
  [[nodiscard]] std::optional<std::uint16_t> listening_port() const noexcept { return port_; }
  // Client: the server's port (the controller relays it); before start().
  void set_peer_port(std::uint16_t port) noexcept { options_.endpoint.peer_port = port; }

  [[nodiscard]] Result<void> start();
  void record_on() noexcept;
  void record_off() noexcept;
  void stop();  // idempotent; closes the listener and the connection

  // Live counters (waits up to ~1 s for the thread to copy them; the last copy otherwise).
  [[nodiscard]] NetworkWorkerResults snapshot();
  [[nodiscard]] NetworkWorkerResults results() const;  // after stop()
  [[nodiscard]] std::optional<Error> failure() const;
  // Set once the worker stopped on its own with failure().
  [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_acquire); }

  [[nodiscard]] const std::string& name() const noexcept { return options_.name; }
  [[nodiscard]] const protocol::NetworkEndpoint& endpoint() const noexcept { return options_.endpoint; }

 private:
  NetworkWorker(NetworkWorkerOptions options, TransferSequence sequence, Socket listener,
                std::optional<std::uint16_t> port);

  void run() noexcept;
  [[nodiscard]] bool open_connection();
  [[nodiscard]] bool transact();
  [[nodiscard]] bool transfer(const PlannedTransfer& planned);
  bool peer_may_have_stopped() noexcept;
  void fail_with(const std::string& what);
  [[nodiscard]] bool recording_at(std::uint64_t now_ns) const noexcept;
  void publish_if_requested() noexcept;
  [[nodiscard]] bool stopping() const noexcept { return stop_requested_.load(std::memory_order_acquire); }

  NetworkWorkerOptions options_;
  TransferSequence sequence_;
  ConnectionSchedule schedule_;
  Socket listener_;
  Socket connection_;
  std::optional<std::uint16_t> port_;
  std::vector<std::byte> buffer_;
  Stopping stopping_;
  WorkerIoCounters counters_;
  std::uint64_t refused_{};
  std::uint64_t connection_opened_ns_{};
  bool connection_counted_{};

  std::atomic<std::uint64_t> record_on_ns_{0};
  std::atomic<std::uint64_t> record_off_ns_{0};
  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> snapshot_requested_{false};
  std::atomic<std::uint64_t> snapshot_sequence_{0};
  std::atomic<bool> failed_{false};

  mutable std::mutex published_mutex_;  // the thread takes it only when a snapshot is asked for
  NetworkWorkerResults published_;
  std::optional<Error> failure_;  // written by the thread before failed_ turns true
  std::thread thread_;
};

}  // namespace iomark::network
