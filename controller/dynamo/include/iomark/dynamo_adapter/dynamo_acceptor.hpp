// Accepts Dynamo 1.1.0 logins (docs/iometer-reference.md#login), on a port of its own or handed
// over by the agents' listener (one port for both: ManagerRegistry::hand_legacy_logins_to), and
// registers each Dynamo as a manager like any other: reads its LOGIN and Manager_Info, answers
// LOGIN_OK (WRONG_VERSION for another version), connects back to the command port it announced
// (retrying every 200 ms, as Dynamo listens only after LOGIN_OK), asks REPORT_TARGETS, then hands
// the command channel to ManagerRegistry::adopt(). The login connection stays open until then, as
// IOmeter keeps it.
//
// The legacy protocol has no authentication: anyone who reaches the port can register a
// manager. The front end says so once when it enables this.
//
// Threading: logins are handled one at a time on the acceptor's own thread; each step has
// a deadline (5 s), so a stalled or hostile peer delays the next login by at most that.
// Handed-over logins wait in a queue of at most kMaxWaitingLogins. Refusals go to
// ManagerEvents::manager_refused.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "iomark/common/result.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/legacy_socket.hpp"
#include "iomark/transport/tcp.hpp"

namespace iomark::controller {

class DynamoAcceptor {
 public:
  static constexpr std::size_t kMaxWaitingLogins = 16;

  // Listens on `address` (IPv4; port 0 picks one). Errors: io_error naming the address.
  [[nodiscard]] static Result<std::unique_ptr<DynamoAcceptor>> start(const transport::HostPort& address,
                                                                     ManagerRegistry& registry,
                                                                     ManagerEvents& events);
  // Takes only the logins login_handler() is given: Dynamos log in on the agents' port.
  [[nodiscard]] static std::unique_ptr<DynamoAcceptor> for_handed_logins(ManagerRegistry& registry,
                                                                         ManagerEvents& events);
  DynamoAcceptor(const DynamoAcceptor&) = delete;
  DynamoAcceptor& operator=(const DynamoAcceptor&) = delete;
  ~DynamoAcceptor();  // stops accepting; registered Dynamos stay with the registry

  // The bound endpoint, e.g. "0.0.0.0:1066"; "the agents' port" for handed-over logins.
  [[nodiscard]] const std::string& endpoint() const noexcept { return endpoint_; }

  // Queues a handed-over login for this acceptor (transport::Listener calls it on its I/O
  // thread; it never blocks). Beyond kMaxWaitingLogins, or once the acceptor is gone, the
  // login is closed (reported as refused while the acceptor lives). The handler may outlive
  // the acceptor.
  [[nodiscard]] transport::LegacyLoginHandler login_handler() const;

 private:
  struct Inbox;
  DynamoAcceptor(std::optional<transport::LegacyListener> listener, ManagerRegistry& registry, ManagerEvents& events);
  void accept_logins(const std::stop_token& stop);
  // The next login (accepted or handed over), or nothing after a short wait.
  [[nodiscard]] std::optional<transport::LegacySocket> next_login(const std::stop_token& stop);

  std::optional<transport::LegacyListener> listener_;  // nullopt: handed-over logins only
  std::shared_ptr<Inbox> inbox_;
  std::string endpoint_;
  ManagerRegistry& registry_;
  ManagerEvents& events_;
  std::jthread thread_;  // last: stopped and joined first
};

// What --legacy-dynamo [ADDR:]PORT asks of both front ends: an empty `address` shares the
// agents' port (the registry's listen() port, now or later: logins are handed over by its
// listener), else Dynamo logins get a port of their own. Errors: those of
// transport::parse_listen_address() and of start(), in the field "--legacy-dynamo".
[[nodiscard]] Result<std::unique_ptr<DynamoAcceptor>> accept_dynamo_logins(const std::string& address,
                                                                           ManagerRegistry& registry,
                                                                           ManagerEvents& events);

}  // namespace iomark::controller
