#include "iomark/dynamo_adapter/dynamo_acceptor.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>

#include "dynamo_connection.hpp"
#include "iomark/legacy/manager_info.hpp"

namespace iomark::controller {

namespace {

using dynamo::Clock;
using dynamo::LegacySocket;

constexpr auto kLoginStepDeadline = std::chrono::seconds(5);
constexpr auto kAcceptStep = std::chrono::milliseconds(100);

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
  auto listener = transport::LegacyListener::open(address.host, address.port, 16);
  if (!listener) {
    return fail(listener.error().code(), "Dynamo logins on " + transport::to_string(address) + ": " +
                                             listener.error().message());
  }
  return std::unique_ptr<DynamoAcceptor>(new DynamoAcceptor(std::move(*listener), registry, events));
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
  return std::unique_ptr<DynamoAcceptor>(new DynamoAcceptor(std::nullopt, registry, events));
}

DynamoAcceptor::DynamoAcceptor(std::optional<transport::LegacyListener> listener, ManagerRegistry& registry,
                               ManagerEvents& events)
    : listener_(std::move(listener)),
      inbox_(std::make_shared<Inbox>()),
      endpoint_(listener_ ? listener_->endpoint() : "the agents' port"),
      registry_(registry),
      events_(events),
      thread_([this](const std::stop_token& stop) { accept_logins(stop); }) {}

DynamoAcceptor::~DynamoAcceptor() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
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
  if (listener_) {
    auto accepted = listener_->accept(Clock::now() + kAcceptStep);
    if (!accepted) return std::nullopt;  // nobody yet: look at the stop request again
    return std::move(*accepted);
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
