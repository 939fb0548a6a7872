// When a network target opens and closes its connection
// (docs/iometer-reference.md#connection-rate): with Test Connection Rate off a target connects once
// and keeps the connection for the whole run; with it on, the connection is closed after
// `transactions per connection` transactions and opened again before the next one, and 0
// transactions means connect and close with no I/O. Both ends of a pair follow the same schedule,
// so the server closes when the client does.
//
// Pure state machine: no sockets, no clock. Not thread-safe; one worker owns one.
#pragma once

#include <cstdint>

namespace iomark::network {

enum class ConnectionStep : std::uint8_t {
  open,      // connect (client) or accept (server) before anything else
  transfer,  // run the next transaction on the open connection
  close,     // close the connection (it is counted as one connection)
};

class ConnectionSchedule {
 public:
  ConnectionSchedule(bool test_connection_rate, std::uint32_t transactions_per_connection) noexcept
      : reconnects_(test_connection_rate), transactions_per_connection_(transactions_per_connection) {}

  [[nodiscard]] ConnectionStep next() const noexcept;
  void opened() noexcept;
  void transferred() noexcept;  // one transaction (request and reply) done
  void closed() noexcept;

  [[nodiscard]] bool is_open() const noexcept { return open_; }

 private:
  bool reconnects_;
  std::uint32_t transactions_per_connection_;
  bool open_{false};
  std::uint32_t done_in_connection_{0};
};

}  // namespace iomark::network
