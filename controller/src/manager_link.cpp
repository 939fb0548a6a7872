#include "iomark/controller/manager_link.hpp"

#include <algorithm>
#include <chrono>

namespace iomark::controller {

namespace {

Error about(const protocol::PeerInfo& peer, const Error& error) {
  const auto name = peer.describe();
  // The field stays the field (an agent's --allow refusal is told apart by it, docs/write-scope.md).
  auto text = error.field().empty() ? error.describe() : error.message();
  // The connection's own errors (closed, silent) already start with the peer's name.
  Error wrapped(error.code(), text.starts_with(name) ? std::move(text) : name + ": " + text);
  if (!error.field().empty()) wrapped.in_field(error.field());
  return wrapped;
}

}  // namespace

Result<std::unique_ptr<ManagerLink>> ManagerLink::open(std::unique_ptr<protocol::Connection> connection,
                                                       Nanoseconds timeout) {
  auto first = connection->receive(timeout);
  return open(std::move(connection), std::move(first));
}

Result<std::unique_ptr<ManagerLink>> ManagerLink::open(std::unique_ptr<protocol::Connection> connection,
                                                       Result<protocol::Envelope> first) {
  if (!first) return fail(about(connection->peer(), first.error()));
  auto* inventory = std::get_if<protocol::Inventory>(&first->message);
  if (inventory == nullptr) {
    return fail(about(connection->peer(), Error(ErrorCode::parse_error,
                                                "sent " + std::string(protocol::message_name(first->message)) +
                                                    " where its inventory was expected")));
  }
  return std::unique_ptr<ManagerLink>(new ManagerLink(std::move(connection), std::move(*inventory)));
}

Result<protocol::Message> ManagerLink::request(protocol::Message request, Nanoseconds timeout,
                                               const PushHandler& on_push) {
  const auto what = std::string(protocol::message_name(request));
  auto id = send(std::move(request));
  if (!id) return fail(id.error());
  return await_reply(*id, what, timeout, on_push);
}

Result<std::uint64_t> ManagerLink::send(protocol::Message request) {
  const auto id = next_request_id_++;
  if (auto sent = connection_->send({id, 0, std::move(request)}); !sent) return fail(about(peer(), sent.error()));
  return id;
}

Result<protocol::Message> ManagerLink::await_reply(std::uint64_t id, std::string_view what, Nanoseconds timeout,
                                                   const PushHandler& on_push, std::stop_token stop) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (stop.stop_requested()) {
      return fail(about(peer(), Error(ErrorCode::io_error, std::string(what) + ": stopped by the user")));
    }
    const auto left = std::chrono::duration_cast<Nanoseconds>(deadline - std::chrono::steady_clock::now());
    if (left <= Nanoseconds(0)) {
      return fail(about(peer(), Error(ErrorCode::timed_out, "no reply to " + std::string(what) + " in time")));
    }
    constexpr Nanoseconds kStopPoll = std::chrono::milliseconds(100);
    auto envelope = connection_->receive(stop.stop_possible() ? std::min(left, kStopPoll) : left);
    if (!envelope) {
      if (envelope.error().code() == ErrorCode::timed_out) continue;
      return fail(about(peer(), envelope.error()));
    }
    if (envelope->correlation_id != id) {
      if (on_push) on_push(envelope->message);
      continue;
    }
    if (auto* progress = std::get_if<protocol::PrepareProgress>(&envelope->message)) {
      if (on_push) on_push(*progress);
      continue;
    }
    if (auto* report = std::get_if<protocol::ErrorReport>(&envelope->message)) {
      const auto& refused = report->error;
      Error failed(refused.code(), std::string(what) + " failed: " + (refused.field().empty() ? refused.describe() : refused.message()));
      if (!refused.field().empty()) failed.in_field(refused.field());
      return fail(about(peer(), failed));
    }
    return std::move(envelope->message);
  }
}

Result<void> ManagerLink::refresh_inventory(Nanoseconds timeout, const PushHandler& on_push) {
  auto reply = request(protocol::InventoryRequest{}, timeout, on_push);
  if (!reply) return fail(reply.error());
  auto* inventory = std::get_if<protocol::Inventory>(&*reply);
  if (inventory == nullptr) {
    return fail(about(peer(), Error(ErrorCode::parse_error, "sent " + std::string(protocol::message_name(*reply)) +
                                                                " where its inventory was expected")));
  }
  inventory_ = std::move(*inventory);
  return {};
}

Result<void> ManagerLink::poll(const PushHandler& on_push) {
  for (;;) {
    auto envelope = connection_->receive(Nanoseconds(0));
    if (!envelope) {
      if (envelope.error().code() == ErrorCode::timed_out) return {};
      return fail(about(peer(), envelope.error()));
    }
    if (auto* report = std::get_if<protocol::ErrorReport>(&envelope->message)) {
      return fail(about(peer(), report->error));
    }
    if (on_push) on_push(envelope->message);
  }
}

}  // namespace iomark::controller
