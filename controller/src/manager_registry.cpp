#include "iomark/controller/manager_registry.hpp"

#include <chrono>

#include "iomark/transport/session_config.hpp"
#include "iomark/transport/tcp.hpp"

namespace iomark::controller {

namespace {

using Clock = std::chrono::steady_clock;

// How often the login thread looks at its stop request between logins.
constexpr auto kLoginPoll = std::chrono::milliseconds(200);
// How often it looks for the inventories of agents that logged in and have not sent it yet.
constexpr auto kInventoryPoll = std::chrono::milliseconds(5);
// A fleet this large may log in at once without one agent being refused or dropped for load
// (a login storm); the listener holds this many sessions in the handshake and
// established ones waiting for the login thread.
constexpr std::size_t kLoginStorm = 1024;

transport::SessionConfig session_config(const RegistryOptions& options) {
  auto config =
      transport::make_session_config(protocol::Role::controller, options.build, options.controller_name, "", options.key);
  config.tls = options.tls;
  return config;
}

}  // namespace

ManagerRegistry::ManagerRegistry(RegistryOptions options, ManagerEvents& events)
    : options_(std::move(options)), events_(events) {}

ManagerRegistry::~ManagerRegistry() {
  stop_listening();
  std::lock_guard lock(mutex_);
  for (auto& entry : entries_) entry.link->close("controller shutting down");
  entries_.clear();
}

Result<void> ManagerRegistry::dial(const transport::HostPort& address, std::stop_token stop) {
  auto connection = transport::dial(address, session_config(options_), std::move(stop));
  if (!connection) {
    events_.manager_refused(connection.error());
    return fail(connection.error());
  }
  return register_link(std::move(*connection), nullptr);
}

Result<std::string> ManagerRegistry::listen(const transport::HostPort& address) {
  std::lock_guard lock(mutex_);
  if (listener_) return fail(ErrorCode::invalid_argument, "already listening on " + listener_->endpoint());
  auto listener = transport::Listener::open(address, session_config(options_), transport::FirstBytesCheck::on,
                                             {kLoginStorm, kLoginStorm});
  if (!listener) return fail(listener.error());
  listener_ = std::move(*listener);
  listener_->hand_legacy_logins_to(legacy_logins_);
  login_thread_ = std::jthread([this](std::stop_token stop) { accept_logins(stop); });
  return listener_->endpoint();
}

void ManagerRegistry::stop_listening() {
  // Joined outside the lock: the login thread takes it to register an arrival.
  if (login_thread_.joinable()) {
    login_thread_.request_stop();
    login_thread_.join();
  }
  std::lock_guard lock(mutex_);
  listener_.reset();
}

void ManagerRegistry::hand_legacy_logins_to(transport::LegacyLoginHandler handler) {
  std::lock_guard lock(mutex_);
  legacy_logins_ = std::move(handler);
  if (listener_) listener_->hand_legacy_logins_to(legacy_logins_);
}

bool ManagerRegistry::is_listening() const {
  std::lock_guard lock(mutex_);
  return listener_ != nullptr;
}

Result<void> ManagerRegistry::adopt(std::unique_ptr<protocol::Connection> connection,
                                    std::unique_ptr<LinkCompanion> companion) {
  return register_link(std::move(connection), std::move(companion));
}

Result<void> ManagerRegistry::wait_for(std::size_t count, Nanoseconds timeout, std::stop_token stop) {
  std::unique_lock lock(mutex_);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  arrived_.wait_until(lock, stop, deadline, [&] { return entries_.size() >= count; });
  if (entries_.size() >= count) return {};
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout).count();
  return fail(stop.stop_requested() ? ErrorCode::cancelled : ErrorCode::timed_out, std::to_string(entries_.size()) + " of " + std::to_string(count) +
                                       " manager(s) logged in " +
                                       (stop.stop_requested() ? std::string("before the wait was stopped")
                                                              : "within " + std::to_string(seconds) + " s"));
}

bool ManagerRegistry::remove(std::size_t index) {
  Entry removed;
  {
    std::lock_guard lock(mutex_);
    if (index >= entries_.size()) return false;
    removed = std::move(entries_[index]);
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(index));
  }
  removed.link->close("disconnected by the controller");
  return true;
}

std::vector<ManagerLink*> ManagerRegistry::links() const {
  std::lock_guard lock(mutex_);
  std::vector<ManagerLink*> links;
  links.reserve(entries_.size());
  for (const auto& entry : entries_) links.push_back(entry.link.get());
  return links;
}

std::size_t ManagerRegistry::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

Result<void> ManagerRegistry::register_link(std::unique_ptr<protocol::Connection> connection,
                                            std::unique_ptr<LinkCompanion> companion) {
  // The inventory wait happens outside the lock: a slow agent must not hold up the others.
  return add_link(ManagerLink::open(std::move(connection), options_.inventory_timeout), std::move(companion));
}

Result<void> ManagerRegistry::add_link(Result<std::unique_ptr<ManagerLink>> link,
                                       std::unique_ptr<LinkCompanion> companion) {
  if (!link) {
    events_.manager_refused(link.error());
    return fail(link.error());
  }
  const ManagerLink& joined = **link;
  {
    std::lock_guard lock(mutex_);
    entries_.push_back(Entry{std::move(companion), std::move(*link)});
  }
  events_.manager_joined(joined);
  arrived_.notify_all();
  return {};
}

// Every connection the listener established is taken at once and then waits here for its
// inventory, so one slow agent holds up neither the others nor the listener's queue: a fleet
// logging in at once is registered as fast as its inventories arrive.
void ManagerRegistry::accept_logins(const std::stop_token& stop) {
  struct Arriving {
    std::unique_ptr<protocol::Connection> connection;
    Clock::time_point deadline;
  };
  std::vector<Arriving> arriving;
  while (!stop.stop_requested()) {
    auto connection = listener_->accept(arriving.empty() ? kLoginPoll : kInventoryPoll);
    if (connection) {
      arriving.push_back({std::move(*connection), Clock::now() + options_.inventory_timeout});
    } else if (connection.error().code() != ErrorCode::timed_out) {
      events_.manager_refused(connection.error());
    }
    for (auto it = arriving.begin(); it != arriving.end();) {
      auto first = it->connection->receive(Nanoseconds(0));
      if (!first && first.error().code() == ErrorCode::timed_out) {
        if (Clock::now() < it->deadline) {
          ++it;
          continue;
        }
        first = fail(ErrorCode::io_error, it->connection->peer().describe() + ": sent no inventory within " +
                                              format_duration(options_.inventory_timeout));
      }
      (void)add_link(ManagerLink::open(std::move(it->connection), std::move(first)), nullptr);  // failures: manager_refused
      it = arriving.erase(it);
    }
  }
}

}  // namespace iomark::controller
