// The managers (agents) one controller drives: agents it dialled (--manager), agents that
// logged in on its listener (dynamo's habit, port 1066), and the embedded in-process agent
// (embedded_agent.hpp). The CLI and the GUI share it, so both find managers the same way.
//
// Threading: every member function is thread-safe. Logins on the listener are handled on
// the registry's own thread, which also calls the ManagerEvents; a GUI bridges them to its
// UI thread. A ManagerLink itself is not thread-safe: one thread at a time drives it (the
// series runner while a series runs). Links stay valid until remove() or destruction.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/protocol/auth.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/tcp.hpp"

namespace iomark::transport {
class TlsCredentials;
}

namespace iomark::controller {

// Told about arrivals and refusals; called on the thread that added the manager (the
// registry's listener thread for logins). Must not call back into the registry's blocking
// functions (wait_for) from there.
class ManagerEvents {
 public:
  virtual ~ManagerEvents() = default;
  virtual void manager_joined(const ManagerLink& /*link*/) {}
  // A login or dial that failed: wrong key, version mismatch, broken peer. The message
  // names the peer.
  virtual void manager_refused(const Error& /*error*/) {}
};

// What must live exactly as long as one link and end right after it closes: the embedded
// agent's thread.
class LinkCompanion {
 public:
  virtual ~LinkCompanion() = default;
};

struct RegistryOptions {
  // The pre-shared key proving who we are; nullopt = --insecure (the agents must agree).
  std::optional<protocol::AuthKey> key;
  std::string controller_name;  // our Hello name (the host name)
  std::string build;            // our Hello build, e.g. "iomark 0.1.0"
  // How long a new manager may take to send its inventory after the handshake.
  Nanoseconds inventory_timeout{std::chrono::seconds(30)};
  // Mutual TLS with dialled and logging-in agents (transport/tls.hpp); null for plain TCP.
  // The embedded agent never uses it.
  std::shared_ptr<const transport::TlsCredentials> tls{};
};

class ManagerRegistry {
 public:
  ManagerRegistry(RegistryOptions options, ManagerEvents& events);
  ManagerRegistry(const ManagerRegistry&) = delete;
  ManagerRegistry& operator=(const ManagerRegistry&) = delete;
  // Stops listening, closes every link, then ends their companions.
  ~ManagerRegistry();

  // Dials an agent started with --listen. Blocks until it is registered or has failed
  // (handshake deadline, then the inventory timeout). Errors name the peer.
  [[nodiscard]] Result<void> dial(const transport::HostPort& address, std::stop_token stop = {});

  // Starts accepting agents that log in on `address` (port 0 picks one) and returns the
  // bound endpoint, e.g. "0.0.0.0:1066". Failed logins go to ManagerEvents::manager_refused.
  // One listener per registry: a second call fails with invalid_argument.
  [[nodiscard]] Result<std::string> listen(const transport::HostPort& address);
  // Where Dynamo 1.1.0 logins on the listen() port go (DynamoAcceptor::login_handler()), now
  // and for later listeners; the listener tells them from agents by their first bytes
  // (transport/first_bytes.hpp). Empty, the default: each is refused, reported to
  // manager_refused as "refused a Dynamo 1.1.0 login: this port does not accept legacy logins".
  void hand_legacy_logins_to(transport::LegacyLoginHandler handler);
  // Stops accepting new logins; registered managers stay.
  void stop_listening();
  [[nodiscard]] bool is_listening() const;

  // Registers an established connection (the embedded agent's in-memory one) once its
  // inventory arrived; `companion` ends right after the link closes.
  [[nodiscard]] Result<void> adopt(std::unique_ptr<protocol::Connection> connection,
                                   std::unique_ptr<LinkCompanion> companion = {});

  // Waits until at least `count` managers are registered. Errors, naming how many arrived:
  // timed_out when `timeout` passes, cancelled when `stop` is requested.
  [[nodiscard]] Result<void> wait_for(std::size_t count, Nanoseconds timeout, std::stop_token stop = {});

  // Closes and forgets the manager at `index` (in links() order). False when there is none.
  bool remove(std::size_t index);

  // The registered managers, in the order they arrived.
  [[nodiscard]] std::vector<ManagerLink*> links() const;
  [[nodiscard]] std::size_t size() const;

 private:
  struct Entry {
    std::unique_ptr<LinkCompanion> companion;  // declared before link: destroyed after it
    std::unique_ptr<ManagerLink> link;
  };

  [[nodiscard]] Result<void> register_link(std::unique_ptr<protocol::Connection> connection,
                                           std::unique_ptr<LinkCompanion> companion);
  [[nodiscard]] Result<void> add_link(Result<std::unique_ptr<ManagerLink>> link, std::unique_ptr<LinkCompanion> companion);
  void accept_logins(const std::stop_token& stop);

  RegistryOptions options_;
  ManagerEvents& events_;
  mutable std::mutex mutex_;
  std::condition_variable_any arrived_;
  std::vector<Entry> entries_;
  std::unique_ptr<transport::Listener> listener_;
  transport::LegacyLoginHandler legacy_logins_;
  std::jthread login_thread_;  // declared last: stopped and joined first
};

}  // namespace iomark::controller
