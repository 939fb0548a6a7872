// One manager (agent) as the controller sees it: an established connection, the inventory
// the agent sent first, and request/reply on top of the connection's frames. Used the same
// way for agents over TCP and for the embedded in-process agent.
#pragma once

#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::controller {

// Messages an agent pushes on its own (samples, preparation progress), delivered while the
// controller waits for a reply or polls.
using PushHandler = std::function<void(const protocol::Message&)>;

class ManagerLink {
 public:
  // Waits up to `timeout` for the agent's Inventory, the first thing it sends.
  [[nodiscard]] static Result<std::unique_ptr<ManagerLink>> open(std::unique_ptr<protocol::Connection> connection,
                                                                 Nanoseconds timeout);
  // The same for a connection whose first envelope (or why none came) was received elsewhere:
  // the registry waits for many inventories at once.
  [[nodiscard]] static Result<std::unique_ptr<ManagerLink>> open(std::unique_ptr<protocol::Connection> connection,
                                                                 Result<protocol::Envelope> first);

  [[nodiscard]] const protocol::PeerInfo& peer() const noexcept { return connection_->peer(); }
  [[nodiscard]] const protocol::Inventory& inventory() const noexcept { return inventory_; }
  // The manager's name: the agent's -n name.
  [[nodiscard]] const std::string& name() const noexcept { return connection_->peer().name; }

  // Sends `request` and waits for its reply (an Ack, FinalResults, ...). An ErrorReport reply
  // becomes an Error naming the manager; pushed messages that arrive meanwhile go to
  // `on_push`. No reply within `timeout` is an error too (the dead-peer deadline normally
  // fires first).
  [[nodiscard]] Result<protocol::Message> request(protocol::Message request, Nanoseconds timeout,
                                                  const PushHandler& on_push = {});

  // request() in two halves, so one command can go to many managers before any reply is
  // awaited: send() returns the request's id, await_reply() waits for its reply as
  // request() does. A stop request on `stop` ends the wait (within 100 ms) with io_error
  // "... stopped by the user"; the reply, if it comes later, is dropped.
  [[nodiscard]] Result<std::uint64_t> send(protocol::Message request);
  [[nodiscard]] Result<protocol::Message> await_reply(std::uint64_t request_id, std::string_view what,
                                                      Nanoseconds timeout, const PushHandler& on_push = {},
                                                      std::stop_token stop = {});

  // Delivers pushed messages that already arrived, without waiting. Fails once the
  // connection is gone.
  [[nodiscard]] Result<void> poll(const PushHandler& on_push);

  // Asks the agent for its inventory again and keeps the answer (inventory() changes: call
  // it only on the thread that drives this link).
  [[nodiscard]] Result<void> refresh_inventory(Nanoseconds timeout, const PushHandler& on_push = {});

  // Connection::watch: `signal` hears of this manager (as `source`) when it has something.
  [[nodiscard]] bool watch(std::shared_ptr<protocol::ArrivalSignal> signal, std::size_t source) {
    return connection_->watch(std::move(signal), source);
  }
  void close(std::string reason) { connection_->close(std::move(reason)); }
  [[nodiscard]] bool is_open() const noexcept { return connection_->is_open(); }

 private:
  ManagerLink(std::unique_ptr<protocol::Connection> connection, protocol::Inventory inventory)
      : connection_(std::move(connection)), inventory_(std::move(inventory)) {}

  std::unique_ptr<protocol::Connection> connection_;
  protocol::Inventory inventory_;
  std::uint64_t next_request_id_{1};
};

}  // namespace iomark::controller
