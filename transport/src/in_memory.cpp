#include "iomark/transport/in_memory.hpp"

#include <array>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "clamp_wait.hpp"
#include "iomark/protocol/frame.hpp"
#include "iomark/protocol/handshake.hpp"

namespace iomark::transport {

namespace {

constexpr const char* kEndpoint = "in-process";

// Both directions of one link under one mutex. Side 0 is the agent end, side 1 the
// controller end; inbox[i] holds the frames sent to side i.
class Link {
 public:
  Link(std::array<protocol::PeerInfo, 2> peers, std::size_t queue_limit_bytes)
      : peers_(std::move(peers)), queue_limit_bytes_(queue_limit_bytes) {}

  [[nodiscard]] const protocol::PeerInfo& peer(int side) const noexcept { return peers_[side]; }

  Result<void> send(int side, const protocol::Envelope& envelope) {
    auto frame = protocol::encode_frame(envelope);
    if (!frame) return fail(std::move(frame).error());
    const int other = 1 - side;
    {
      std::lock_guard lock(mutex_);
      auto& end = ends_[side];
      if (end.error) return fail(*end.error);
      auto& to = ends_[other];
      if (to.inbox_bytes > 0 && to.inbox_bytes + frame->size() > queue_limit_bytes_) {
        Error error(ErrorCode::io_error, peers_[side].describe() + ": the peer is not reading: " +
                                             std::to_string(to.inbox_bytes) + " bytes wait to be read (limit " +
                                             std::to_string(queue_limit_bytes_) + ")");
        end.error = error;
        close_other_locked(side);
        changed_.notify_all();
        return fail(std::move(error));
      }
      to.inbox_bytes += frame->size();
      to.inbox.push_back(std::move(*frame));
      tell_watcher_locked(other);
    }
    changed_.notify_all();
    return {};
  }

  Result<protocol::Envelope> receive(int side, Nanoseconds timeout) {
    std::unique_lock lock(mutex_);
    auto& end = ends_[side];
    // A poll does not wait (tcp_session.cpp says why).
    if (timeout > Nanoseconds(0)) {
      changed_.wait_for(lock, detail::clamp_wait(timeout), [&end] { return !end.inbox.empty() || end.error; });
    }
    if (!end.inbox.empty()) {
      auto frame = std::move(end.inbox.front());
      end.inbox.pop_front();
      end.inbox_bytes -= frame.size();
      // Decoding under the lock keeps frames in order across concurrent receivers; the
      // embedded agent's frames are small and few.
      end.decoder.feed(frame);
      auto step = end.decoder.next();
      if (auto* envelope = std::get_if<protocol::Envelope>(&step)) return std::move(*envelope);
      Error error(ErrorCode::io_error,
                  peers_[side].describe() + ": protocol violation: " +
                      (std::holds_alternative<protocol::FrameError>(step)
                           ? std::get<protocol::FrameError>(step).error.message()
                           : std::string("a frame did not decode whole")));
      close_locked(side, error);
      changed_.notify_all();
      return fail(std::move(error));
    }
    if (end.error) return fail(*end.error);
    return fail(ErrorCode::timed_out,
                peers_[side].describe() + ": nothing received within " + format_duration(timeout));
  }

  void close(int side, const std::string& reason) {
    {
      std::lock_guard lock(mutex_);
      close_locked(side, Error(ErrorCode::io_error, peers_[side].describe() + ": " + reason));
    }
    changed_.notify_all();
  }

  void watch(int side, std::shared_ptr<protocol::ArrivalSignal> signal, std::size_t source) {
    std::lock_guard lock(mutex_);
    auto& end = ends_[side];
    end.watcher = std::move(signal);
    end.watch_source = source;
    if (!end.inbox.empty() || end.error) tell_watcher_locked(side);
  }

  [[nodiscard]] bool is_open(int side) const noexcept {
    std::lock_guard lock(mutex_);
    return !ends_[side].error;
  }

 private:
  struct End {
    std::deque<std::vector<std::byte>> inbox;
    std::size_t inbox_bytes{0};
    protocol::FrameDecoder decoder;
    std::optional<Error> error;  // set once this end is closed
    std::shared_ptr<protocol::ArrivalSignal> watcher;  // told of inbox and error, with watch_source
    std::size_t watch_source{0};
  };

  void tell_watcher_locked(int side) {
    const auto& end = ends_[side];
    if (end.watcher) end.watcher->notify(end.watch_source);
  }

  // A local close: this end drops what it did not read; the other end reads what it got,
  // then learns that the peer closed.
  void close_locked(int side, Error error) {
    auto& end = ends_[side];
    if (end.error) return;
    end.error = std::move(error);
    end.inbox.clear();
    end.inbox_bytes = 0;
    tell_watcher_locked(side);
    close_other_locked(side);
  }

  void close_other_locked(int side) {
    auto& other = ends_[1 - side];
    if (!other.error) {
      other.error = Error(ErrorCode::io_error, peers_[1 - side].describe() + ": the peer closed the connection");
      tell_watcher_locked(1 - side);
    }
  }

  const std::array<protocol::PeerInfo, 2> peers_;  // who each end talks to
  const std::size_t queue_limit_bytes_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::array<End, 2> ends_;
};

class InMemoryConnection final : public protocol::Connection {
 public:
  InMemoryConnection(std::shared_ptr<Link> link, int side) noexcept : link_(std::move(link)), side_(side) {}
  ~InMemoryConnection() override { link_->close(side_, "closed locally"); }

  [[nodiscard]] const protocol::PeerInfo& peer() const noexcept override { return link_->peer(side_); }
  [[nodiscard]] Result<void> send(protocol::Envelope envelope) override { return link_->send(side_, envelope); }
  [[nodiscard]] Result<protocol::Envelope> receive(Nanoseconds timeout) override {
    return link_->receive(side_, timeout);
  }
  [[nodiscard]] bool watch(std::shared_ptr<protocol::ArrivalSignal> signal, std::size_t source) override {
    link_->watch(side_, std::move(signal), source);
    return true;
  }
  void close(std::string reason) override { link_->close(side_, reason); }
  [[nodiscard]] bool is_open() const noexcept override { return link_->is_open(side_); }

 private:
  std::shared_ptr<Link> link_;
  int side_;
};

protocol::PeerInfo peer_info(const protocol::Hello& hello, std::uint32_t version) {
  return protocol::PeerInfo{.role = hello.role,
                            .name = hello.name,
                            .address = hello.address,
                            .endpoint = kEndpoint,
                            .build = hello.build,
                            .protocol_version = version,
                            .auth_mode = protocol::AuthMode::none,
                            .timer_resolution_hz = std::nullopt};
}

}  // namespace

Result<InMemoryPair> make_in_memory_pair(const protocol::Hello& agent, const protocol::Hello& controller,
                                         std::size_t queue_limit_bytes) {
  for (const auto* hello : {&agent, &controller}) {
    if (hello->auth_mode != protocol::AuthMode::none) {
      return fail(Error(ErrorCode::invalid_argument,
                        "an in-process connection runs without a key: make the " +
                            std::string(protocol::to_string(hello->role)) + "'s hello with AuthMode::none")
                      .in_field("auth_mode"));
    }
  }
  auto agreed = protocol::agree(agent, controller);
  if (!agreed) return fail(std::move(agreed).error().error);
  // Side 0 (the agent end) talks to the controller; side 1 to the agent.
  auto link = std::make_shared<Link>(
      std::array{peer_info(controller, agreed->version), peer_info(agent, agreed->version)}, queue_limit_bytes);
  return InMemoryPair{std::make_unique<InMemoryConnection>(link, 0), std::make_unique<InMemoryConnection>(link, 1)};
}

}  // namespace iomark::transport
