#include "iomark/controller/dynamo_acceptor.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

DynamoAcceptor::DynamoAcceptor(int listen_fd, std::string endpoint, ManagerRegistry& registry, ManagerEvents& events)
    : listen_fd_(listen_fd), endpoint_(std::move(endpoint)), registry_(registry), events_(events),
      thread_([this](const std::stop_token& stop) { accept_logins(stop); }) {}

DynamoAcceptor::~DynamoAcceptor() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
}

void DynamoAcceptor::accept_logins(const std::stop_token& stop) {
  const LegacySocket listener_view(::dup(listen_fd_));
  while (!stop.stop_requested()) {
    if (!listener_view.readable(std::chrono::milliseconds(100))) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    auto connection = take_login(LegacySocket(fd));
    if (!connection) {
      events_.manager_refused(connection.error());
      continue;
    }
    (void)registry_.adopt(std::move(*connection));  // a failure went to manager_refused
  }
}

}  // namespace iomark::controller
