#include "iomark/controller/dynamo_acceptor.hpp"

#include <arpa/inet.h>
#include <poll.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>

#include "dynamo_connection.hpp"
#include "iomark/legacy/manager_info.hpp"

namespace iomark::controller {

namespace {

using dynamo::Clock;
using dynamo::LegacySocket;

constexpr auto kLoginStepDeadline = std::chrono::seconds(5);

// One login, up to the registered command channel (spec §6.2 steps 2-5).
Result<std::unique_ptr<protocol::Connection>> take_login(LegacySocket login) {
  const auto who = "Dynamo login from " + login.peer_endpoint();
  const auto named = [&who](const Error& error) {
    Error e(error.code(), who + ": " + error.message());
    if (!error.field().empty()) e.in_field(error.field());
    return e;
  };
  std::array<std::byte, legacy::kMessageBytes> message_bytes{};
  if (auto got = login.receive_exact(message_bytes, Clock::now() + kLoginStepDeadline); !got) {
    return fail(named(got.error()));
  }
  const auto message = legacy::decode_message(message_bytes).value();
  if (auto checked = legacy::check_login(message); !checked) {
    if (checked.error().code() == ErrorCode::unsupported) {
      (void)login.send_all(legacy::encode_message({legacy::Purpose::login, static_cast<std::int32_t>(legacy::Purpose::wrong_version)}),
                           Clock::now() + kLoginStepDeadline);
    }
    return fail(named(checked.error()));
  }
  auto block = legacy::make_data_block();
  if (auto got = login.receive_exact(block, Clock::now() + kLoginStepDeadline); !got) return fail(named(got.error()));
  auto info = legacy::decode_manager_info(block);
  if (!info) return fail(named(info.error()));  // a bad size gets no reply, as from IOmeter
  if (auto sent = login.send_all(legacy::encode_message({legacy::Purpose::login, legacy::kLoginOkData}),
                                 Clock::now() + kLoginStepDeadline);
      !sent) {
    return fail(named(sent.error()));
  }
  // Without -m Dynamo sends no address: it runs where it logged in from.
  const auto host = info->network_address.empty() ? login.peer_ip() : info->network_address;
  auto channel = LegacySocket::connect(host, info->command_port, Clock::now() + kLoginStepDeadline);
  if (!channel) return fail(named(channel.error()));
  auto connection = dynamo::DynamoConnection::open(std::move(*channel), std::move(*info));
  if (!connection) return fail(named(connection.error()));
  return std::unique_ptr<protocol::Connection>(std::move(*connection));
}

}  // namespace

Result<std::unique_ptr<DynamoAcceptor>> DynamoAcceptor::start(const transport::HostPort& address,
                                                              ManagerRegistry& registry, ManagerEvents& events) {
  const auto where = transport::to_string(address);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(ErrorCode::io_error, "Dynamo logins on " + where + ": " + std::strerror(errno));
  const int on = 1;
  (void)::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in bind_to{};
  bind_to.sin_family = AF_INET;
  bind_to.sin_port = htons(address.port);
  const auto host = address.host.empty() || address.host == "0.0.0.0" ? std::string("0.0.0.0") : address.host;
  if (::inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host.c_str(), &bind_to.sin_addr) != 1) {
    ::close(fd);
    return fail(ErrorCode::invalid_argument, "Dynamo logins: '" + address.host + "' is not an IPv4 address");
  }
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&bind_to), sizeof bind_to) != 0 || ::listen(fd, 16) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    return fail(ErrorCode::io_error, "Dynamo logins on " + where + ": " + reason);
  }
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  (void)::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length);
  const auto endpoint = host + ":" + std::to_string(ntohs(bound.sin_port));
  return std::unique_ptr<DynamoAcceptor>(new DynamoAcceptor(fd, endpoint, registry, events));
}

// Handed-over logins waiting for the acceptor's thread; shared with the handlers, which may
// outlive the acceptor.
struct DynamoAcceptor::Inbox {
  std::mutex mutex;
  std::condition_variable_any arrived;
  std::deque<LegacySocket> logins;
  std::size_t overflowed{0};  // closed unheard since the thread last looked
};

std::unique_ptr<DynamoAcceptor> DynamoAcceptor::for_handed_logins(ManagerRegistry& registry, ManagerEvents& events) {
  return std::unique_ptr<DynamoAcceptor>(new DynamoAcceptor(-1, "the agents' port", registry, events));
}

DynamoAcceptor::DynamoAcceptor(int listen_fd, std::string endpoint, ManagerRegistry& registry, ManagerEvents& events)
    : listen_fd_(listen_fd), inbox_(std::make_shared<Inbox>()), endpoint_(std::move(endpoint)), registry_(registry),
      events_(events), thread_([this](const std::stop_token& stop) { accept_logins(stop); }) {}

DynamoAcceptor::~DynamoAcceptor() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

transport::LegacyLoginHandler DynamoAcceptor::login_handler() const {
  return [weak_inbox = std::weak_ptr(inbox_)](LegacySocket login) {
    const auto inbox = weak_inbox.lock();
    if (!inbox) return;  // the acceptor is gone: `login` closes
    {
      std::lock_guard lock(inbox->mutex);
      if (inbox->logins.size() >= kMaxWaitingLogins) {
        ++inbox->overflowed;
        return;
      }
      inbox->logins.push_back(std::move(login));
    }
    inbox->arrived.notify_all();
  };
}

std::optional<LegacySocket> DynamoAcceptor::next_login(const std::stop_token& stop) {
  if (listen_fd_ >= 0) {
    pollfd ready{listen_fd_, POLLIN, 0};
    if (::poll(&ready, 1, 100) <= 0) return std::nullopt;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return std::nullopt;
    return LegacySocket(fd);
  }
  std::unique_lock lock(inbox_->mutex);
  inbox_->arrived.wait(lock, stop, [this] { return !inbox_->logins.empty() || inbox_->overflowed > 0; });
  if (const auto overflowed = std::exchange(inbox_->overflowed, 0); overflowed > 0) {
    lock.unlock();
    events_.manager_refused(Error(ErrorCode::io_error, std::to_string(overflowed) + " Dynamo login(s) closed unheard: " +
                                                           std::to_string(kMaxWaitingLogins) +
                                                           " logins already waited their turn"));
    return std::nullopt;
  }
  if (inbox_->logins.empty()) return std::nullopt;  // stop requested
  auto login = std::move(inbox_->logins.front());
  inbox_->logins.pop_front();
  return login;
}

void DynamoAcceptor::accept_logins(const std::stop_token& stop) {
  while (!stop.stop_requested()) {
    auto login = next_login(stop);
    if (!login) continue;
    auto connection = take_login(std::move(*login));
    if (!connection) {
      events_.manager_refused(connection.error());
      continue;
    }
    (void)registry_.adopt(std::move(*connection));  // a failure went to manager_refused
  }
}

Result<std::unique_ptr<DynamoAcceptor>> accept_dynamo_logins(const std::string& address, ManagerRegistry& registry,
                                                             ManagerEvents& events) {
  if (address.empty()) {
    auto acceptor = DynamoAcceptor::for_handed_logins(registry, events);
    registry.hand_legacy_logins_to(acceptor->login_handler());
    return acceptor;
  }
  auto parsed = transport::parse_listen_address(address, "0.0.0.0");
  if (!parsed) return fail(Error(parsed.error()).in_field("--legacy-dynamo"));
  auto acceptor = DynamoAcceptor::start(*parsed, registry, events);
  if (!acceptor) return fail(Error(acceptor.error()).in_field("--legacy-dynamo"));
  return acceptor;
}

}  // namespace iomark::controller
