#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <utility>
#include <variant>
#include <vector>

#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/steady_timer.hpp>

#include "first_bytes_probe.hpp"
#include "io_thread.hpp"
#include "iomark/transport/tcp.hpp"
#include "tcp_connection.hpp"
#include "tcp_session.hpp"

namespace iomark::transport {

namespace asio = boost::asio;
using detail::FirstBytesProbe;
using detail::Tcp;
using detail::TcpSession;

namespace {

// A flood of connections costs at most ListenerLimits::max_handshakes sessions in the
// handshake at once, each holding at most kMaxHandshakeFrameBytes, each for at most the
// handshake timeout. Beyond it the session that has waited longest is dropped to make room: a
// good peer is through in milliseconds and a slowloris never is, so a flood of idle
// connections cannot lock good peers out (dropping the newcomer instead would).
constexpr std::size_t kMaxKeptFailures = 64;
// After accept() itself fails (out of file descriptors), before trying again.
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(100);

}  // namespace

// Everything the I/O thread's handlers share with the Listener; kept alive by them.
struct Listener::State : std::enable_shared_from_this<Listener::State> {
  State(asio::io_context& io_context, Tcp::acceptor bound, SessionConfig session_config, FirstBytesCheck check,
        ListenerLimits held)
      : context(io_context),
        acceptor(std::move(bound)),
        config(std::move(session_config)),
        first_bytes(check),
        limits(held),
        retry_timer(io_context) {}

  void accept_next();
  void on_accepted(const boost::system::error_code& error, Tcp::socket socket);
  void start_probe(Tcp::socket socket);
  void on_probed(const std::shared_ptr<FirstBytesProbe>& probe, Result<FirstBytesProbe::Verdict> verdict);
  void hand_off_legacy_login(FirstBytesProbe::Verdict login);
  void start_session(Tcp::socket socket);
  void on_session_done(const std::shared_ptr<TcpSession>& session, Result<void> outcome);
  void push_failure_locked(Error error);
  void shut_down();  // on the I/O thread, after the Listener is gone

  asio::io_context& context;
  Tcp::acceptor acceptor;
  const SessionConfig config;
  const FirstBytesCheck first_bytes;
  const ListenerLimits limits;
  asio::steady_timer retry_timer;
  std::string endpoint;
  std::uint16_t port{};
  std::vector<std::shared_ptr<TcpSession>> handshaking;  // I/O thread only
  std::vector<std::shared_ptr<FirstBytesProbe>> probing;  // I/O thread only

  std::mutex mutex;
  std::condition_variable changed;
  // Outcomes in the order they finished: a session for accept(), or why one failed.
  std::deque<std::variant<std::shared_ptr<TcpSession>, Error>> outcomes;
  std::size_t waiting_connections{0};
  bool closed{false};
  LegacyLoginHandler legacy_logins;
};

void Listener::State::accept_next() {
  acceptor.async_accept([self = shared_from_this()](const boost::system::error_code& error, Tcp::socket socket) {
    self->on_accepted(error, std::move(socket));
  });
}

void Listener::State::on_accepted(const boost::system::error_code& error, Tcp::socket socket) {
  if (error == asio::error::operation_aborted || !acceptor.is_open()) return;
  if (error) {
    {
      std::lock_guard lock(mutex);
      push_failure_locked(Error(ErrorCode::io_error, endpoint + ": accepting a connection failed: " + error.message()));
    }
    changed.notify_all();
    retry_timer.expires_after(kAcceptRetryDelay);
    retry_timer.async_wait([self = shared_from_this()](const boost::system::error_code& timer_error) {
      if (!timer_error) self->accept_next();
    });
    return;
  }
  if (first_bytes == FirstBytesCheck::on) {
    start_probe(std::move(socket));
  } else {
    start_session(std::move(socket));
  }
  accept_next();
}

// Probes count against the same bound as handshakes, with the same rule: the one that has
// waited longest makes room.
void Listener::State::start_probe(Tcp::socket socket) {
  if (probing.size() >= limits.max_handshakes) {
    const auto oldest = probing.front();
    probing.erase(probing.begin());
    oldest->drop("dropped: the slowest of " + std::to_string(limits.max_handshakes) +
                 " connections yet to show their first bytes, to make room for a new one");
  }
  boost::system::error_code error;
  const auto remote = socket.remote_endpoint(error);
  auto peer = error ? endpoint : detail::endpoint_text(remote);
  auto probe = std::make_shared<FirstBytesProbe>(context, std::move(socket), std::move(peer));
  probing.push_back(probe);
  probe->start(config.handshake_timeout, [weak_self = weak_from_this(), weak_probe = std::weak_ptr(probe)](
                                             Result<FirstBytesProbe::Verdict> verdict) {
    auto self = weak_self.lock();
    auto done = weak_probe.lock();
    if (self && done) self->on_probed(done, std::move(verdict));
  });
}

void Listener::State::on_probed(const std::shared_ptr<FirstBytesProbe>& probe,
                                Result<FirstBytesProbe::Verdict> verdict) {
  std::erase(probing, probe);
  if (!verdict) {
    {
      std::lock_guard lock(mutex);
      push_failure_locked(std::move(verdict).error());
    }
    changed.notify_all();
    return;
  }
  if (verdict->kind == FirstBytes::dynamo_login) {
    hand_off_legacy_login(std::move(*verdict));
  } else {
    start_session(std::move(verdict->socket));
  }
}

void Listener::State::hand_off_legacy_login(FirstBytesProbe::Verdict login) {
  {
    std::lock_guard lock(mutex);
    if (closed) return;  // the socket closes with `login`
    if (!legacy_logins) {
      push_failure_locked(Error(ErrorCode::validation_error,
                                login.peer + ": refused a Dynamo 1.1.0 login: this port does not accept legacy "
                                             "logins (iomark run --legacy-dynamo, or the GUI's Managers menu)"));
    } else {
      // The Dynamo side is blocking, deadline-bound I/O of its own (legacy_socket.hpp), so it
      // takes the descriptor out of Asio's hands; Asio's copy closes with `login`.
      const int fd = ::dup(login.socket.native_handle());
      if (fd < 0) {
        push_failure_locked(Error(ErrorCode::io_error, login.peer + ": cannot hand over a Dynamo login: dup failed"));
      } else {
        (void)::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        // Under the lock, so that no call happens after hand_legacy_logins_to() or ~Listener.
        legacy_logins(LegacySocket(fd));
        return;
      }
    }
  }
  changed.notify_all();
}

void Listener::State::start_session(Tcp::socket socket) {
  if (handshaking.size() >= limits.max_handshakes) {
    // Its done handler reports it (named by the reason below) and finds it already gone.
    const auto oldest = handshaking.front();
    handshaking.erase(handshaking.begin());
    oldest->close("dropped: the slowest of " + std::to_string(limits.max_handshakes) +
                  " connections establishing their sessions, to make room for a new one");
  }
  auto session = std::make_shared<TcpSession>(context, config, protocol::ConnectionSide::listener, endpoint);
  handshaking.push_back(session);
  session->start_accepted(std::move(socket), [weak_self = weak_from_this(), weak_session = std::weak_ptr(session)](
                                                 Result<void> outcome) {
    auto self = weak_self.lock();
    auto done = weak_session.lock();
    if (self && done) self->on_session_done(done, std::move(outcome));
  });
}

void Listener::State::on_session_done(const std::shared_ptr<TcpSession>& session, Result<void> outcome) {
  std::erase(handshaking, session);
  bool refuse = false;
  {
    std::lock_guard lock(mutex);
    if (!outcome) {
      push_failure_locked(std::move(outcome).error());
    } else if (closed) {
      refuse = true;
    } else if (waiting_connections >= limits.max_waiting) {
      refuse = true;
      push_failure_locked(Error(ErrorCode::io_error, session->peer().describe() + ": refused: " +
                                                         std::to_string(limits.max_waiting) +
                                                         " connections already wait for accept()"));
    } else {
      outcomes.emplace_back(session);
      ++waiting_connections;
    }
  }
  changed.notify_all();
  if (refuse) session->close("refused by the listener");
}

void Listener::State::push_failure_locked(Error error) {
  const auto failures = static_cast<std::size_t>(std::count_if(
      outcomes.begin(), outcomes.end(), [](const auto& outcome) { return std::holds_alternative<Error>(outcome); }));
  if (failures >= kMaxKeptFailures) {
    outcomes.erase(std::find_if(outcomes.begin(), outcomes.end(),
                                [](const auto& outcome) { return std::holds_alternative<Error>(outcome); }));
  }
  outcomes.emplace_back(std::move(error));
}

void Listener::State::shut_down() {
  boost::system::error_code ignored;
  acceptor.close(ignored);
  retry_timer.cancel();
  for (const auto& session : std::exchange(handshaking, {})) session->close("the listener was closed");
  for (const auto& probe : std::exchange(probing, {})) probe->drop("the listener was closed");
}

Listener::Listener(std::shared_ptr<detail::IoThread> io, std::shared_ptr<State> state) noexcept
    : io_(std::move(io)), state_(std::move(state)) {}

Result<std::unique_ptr<Listener>> Listener::open(const HostPort& address, SessionConfig config,
                                                 FirstBytesCheck check,
                                                 ListenerLimits limits) {
  if (auto valid = validate(config); !valid) return fail(std::move(valid).error());
  auto io = detail::IoThread::start();
  if (!io) return fail(std::move(io).error());
  auto& context = (*io)->context();
  const auto where = to_string(address);

  boost::system::error_code error;
  Tcp::resolver resolver(context);
  const auto found = resolver.resolve(address.host, std::to_string(address.port),
                                      Tcp::resolver::passive | Tcp::resolver::numeric_service, error);
  if (error || found.empty()) {
    return fail(Error(ErrorCode::not_found, "cannot listen on " + where + ": " +
                                                (error ? error.message() : std::string("no address found")))
                    .in_field("listen"));
  }
  const auto local = found.begin()->endpoint();
  const auto cannot = [&where](const char* step, const boost::system::error_code& why) {
    return fail(Error(ErrorCode::io_error, "cannot listen on " + where + ": " + step + ": " + why.message())
                    .in_field("listen"));
  };

  Tcp::acceptor acceptor(context);
  acceptor.open(local.protocol(), error);
  if (error) return cannot("socket", error);
  if (local.address().is_v6() && local.address().is_unspecified()) {
    // "::" serves IPv4 clients too where the system allows it; where not, IPv6 only.
    acceptor.set_option(asio::ip::v6_only(false), error);
  }
  acceptor.set_option(asio::socket_base::reuse_address(true), error);
  if (error) return cannot("SO_REUSEADDR", error);
  acceptor.bind(local, error);
  if (error) return cannot("bind", error);
  acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) return cannot("listen", error);
  const auto bound = acceptor.local_endpoint(error);
  if (error) return cannot("local address", error);

  auto state = std::make_shared<State>(context, std::move(acceptor), std::move(config), check, limits);
  state->endpoint = detail::endpoint_text(bound);
  state->port = bound.port();
  asio::post(context, [state] { state->accept_next(); });
  return std::unique_ptr<Listener>(new Listener(std::move(*io), std::move(state)));
}

Listener::~Listener() {
  std::deque<std::variant<std::shared_ptr<TcpSession>, Error>> unclaimed;
  {
    std::lock_guard lock(state_->mutex);
    state_->closed = true;
    state_->legacy_logins = nullptr;
    unclaimed.swap(state_->outcomes);
  }
  for (auto& outcome : unclaimed) {
    if (auto* session = std::get_if<std::shared_ptr<TcpSession>>(&outcome)) (*session)->close("the listener was closed");
  }
  asio::post(io_->context(), [state = state_] { state->shut_down(); });
}

void Listener::hand_legacy_logins_to(LegacyLoginHandler handler) {
  std::lock_guard lock(state_->mutex);
  state_->legacy_logins = std::move(handler);
}

std::uint16_t Listener::port() const noexcept { return state_->port; }

const std::string& Listener::endpoint() const noexcept { return state_->endpoint; }

Result<std::unique_ptr<protocol::Connection>> Listener::accept(Nanoseconds timeout) {
  std::unique_lock lock(state_->mutex);
  state_->changed.wait_for(lock, detail::clamp_wait(timeout), [this] { return !state_->outcomes.empty(); });
  if (state_->outcomes.empty()) {
    return fail(ErrorCode::timed_out, "no connection on " + state_->endpoint + " within " + format_duration(timeout));
  }
  auto outcome = std::move(state_->outcomes.front());
  state_->outcomes.pop_front();
  if (auto* error = std::get_if<Error>(&outcome)) return fail(std::move(*error));
  --state_->waiting_connections;
  lock.unlock();
  return std::make_unique<detail::TcpConnection>(io_, std::move(std::get<std::shared_ptr<TcpSession>>(outcome)));
}

}  // namespace iomark::transport
