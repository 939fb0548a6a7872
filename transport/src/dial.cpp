#include <condition_variable>
#include <mutex>
#include <optional>
#include <utility>

#include <boost/asio/post.hpp>

#include "clamp_wait.hpp"
#include "io_thread.hpp"
#include "iomark/transport/tcp.hpp"
#include "tcp_connection.hpp"
#include "tcp_session.hpp"

namespace iomark::transport {

namespace asio = boost::asio;

namespace {

// Where the I/O thread leaves the outcome of the handshake for the dialing thread.
struct DialOutcome {
  std::mutex mutex;
  std::condition_variable_any changed;
  std::optional<Result<void>> result;
};

Error stopped(const HostPort& peer) {
  return Error(ErrorCode::cancelled, to_string(peer) + ": dialing stopped before a session was established");
}

}  // namespace

Result<std::unique_ptr<protocol::Connection>> dial(const HostPort& peer, const SessionConfig& config,
                                                   std::stop_token stop) {
  if (auto valid = validate(config); !valid) return fail(std::move(valid).error());
  auto io = detail::IoThread::start();
  if (!io) return fail(std::move(io).error());

  auto session = std::make_shared<detail::TcpSession>((*io)->context(), config, protocol::ConnectionSide::dialer,
                                                      to_string(peer));
  auto outcome = std::make_shared<DialOutcome>();
  asio::post((*io)->context(), [session, peer, outcome] {
    session->start_dial(peer.host, peer.port, [outcome](Result<void> result) {
      {
        std::lock_guard lock(outcome->mutex);
        outcome->result = std::move(result);
      }
      outcome->changed.notify_all();
    });
  });

  std::optional<Result<void>> result;
  {
    std::unique_lock lock(outcome->mutex);
    // The session's own handshake timer ends every attempt; the stop token may end it sooner.
    outcome->changed.wait(lock, stop, [&outcome] { return outcome->result.has_value(); });
    result = outcome->result;
  }
  if (!result || !*result) {
    // Let the session hand its ErrorReport to the peer before the thread goes away.
    session->close("dialing stopped");
    (void)session->wait_closed(config.close_linger + std::chrono::seconds(1));
    return fail(result ? std::move(*result).error() : stopped(peer));
  }
  return std::make_unique<detail::TcpConnection>(std::move(*io), std::move(session));
}

Result<SharedIoThread> SharedIoThread::start() {
  auto io = detail::IoThread::start();
  if (!io) return fail(std::move(io).error());
  return SharedIoThread(std::move(*io));
}

void dial_async(const HostPort& peer, const SessionConfig& config, const SharedIoThread& io,
                std::function<void(Result<std::unique_ptr<protocol::Connection>>)> done) {
  if (auto valid = validate(config); !valid) {
    done(fail(std::move(valid).error()));
    return;
  }
  auto session = std::make_shared<detail::TcpSession>(io.io_->context(), config, protocol::ConnectionSide::dialer,
                                                      to_string(peer));
  asio::post(io.io_->context(), [session, peer, thread = io.io_, done = std::move(done)]() mutable {
    // The session's handlers keep it alive; this weak reference does not keep it beyond them.
    session->start_dial(peer.host, peer.port,
                        [weak = std::weak_ptr(session), thread, done = std::move(done)](Result<void> result) {
                          auto established = weak.lock();
                          if (!result || !established) {
                            done(fail(result ? Error(ErrorCode::io_error, "the session ended while being established")
                                             : std::move(result).error()));
                            return;
                          }
                          done(std::make_unique<detail::TcpConnection>(thread, std::move(established)));
                        });
  });
}

Nanoseconds backoff_delay(const BackoffPolicy& policy, std::uint32_t failed_attempts) noexcept {
  auto delay = std::min(policy.initial, policy.maximum);
  for (std::uint32_t i = 1; i < failed_attempts; ++i) {
    if (delay > policy.maximum / 2) return policy.maximum;  // doubling would pass it (or overflow)
    delay *= 2;
  }
  return delay;
}

Result<std::unique_ptr<protocol::Connection>> dial_with_backoff(const HostPort& peer, const SessionConfig& config,
                                                                const BackoffPolicy& policy, std::stop_token stop,
                                                                const RetryObserver& on_retry) {
  std::mutex mutex;
  std::condition_variable_any stop_requested;
  for (std::uint32_t failures = 1;; ++failures) {
    if (stop.stop_requested()) return fail(stopped(peer));
    auto connection = dial(peer, config, stop);
    if (connection) return connection;
    if (stop.stop_requested()) return fail(stopped(peer));
    if (connection.error().code() != ErrorCode::io_error) return connection;
    const auto delay = backoff_delay(policy, failures);
    if (on_retry) on_retry(connection.error(), delay);
    std::unique_lock lock(mutex);
    stop_requested.wait_for(lock, stop, detail::clamp_wait(delay), [] { return false; });
  }
}

}  // namespace iomark::transport
