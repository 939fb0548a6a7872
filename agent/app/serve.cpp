#include "serve.hpp"

#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <stop_token>
#include <thread>

#include "iomark/common/host_name.hpp"
#include "iomark/agent/agent_service.hpp"
#include "iomark/agent/host_stats.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/key_file.hpp"
#include "iomark/transport/session_config.hpp"
#include "iomark/transport/tcp.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::agent_app {

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 3;

int bad_input(const Error& error) {
  std::cerr << "iomark-agent: " << error.describe() << '\n';
  return kExitBadInput;
}

// SIGINT and SIGTERM become a stop request: signals are blocked in every thread and taken
// by one thread with sigwait(), so nothing runs in a signal handler.
class SignalStop {
 public:
  SignalStop() {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
    waiter_ = std::thread([this] {
      int received = 0;
      sigwait(&signals_, &received);
      if (!done_) std::cerr << "iomark-agent: stopping (signal " << received << ")\n";
      source_.request_stop();
    });
  }
  ~SignalStop() {
    done_ = true;
    ::kill(::getpid(), SIGTERM);  // wakes the waiter; the signal stays blocked
    waiter_.join();
  }
  [[nodiscard]] std::stop_token token() const { return source_.get_token(); }

 private:
  sigset_t signals_{};
  std::stop_source source_;
  std::atomic<bool> done_{false};
  std::thread waiter_;
};

}  // namespace

int serve(const ServeOptions& options) {
  if (options.protocol == "iometer") return serve_iometer(options);
  if (options.controller.empty() == options.listen.empty()) {
    return bad_input(Error(ErrorCode::invalid_argument,
                           "name the controller with -i HOST[:PORT], or wait for one with --listen [ADDR:]PORT "
                           "(exactly one of them)"));
  }
  auto policy = targets::SafetyPolicy::create(
      options.allow, options.allow_destructive ? targets::Destructive::allow : targets::Destructive::refuse);
  if (!policy) return bad_input(Error(policy.error()).in_field("--allow"));
  std::optional<protocol::AuthKey> key;
  if (!options.insecure) {
    auto loaded = transport::load_key(options.key_file.empty() ? std::nullopt
                                                               : std::optional<std::filesystem::path>(options.key_file));
    if (!loaded) return bad_input(loaded.error());
    key = std::move(*loaded);
  }
  auto tls = transport::load_tls(options.tls_cert, options.tls_key, options.tls_ca);
  if (!tls) return bad_input(tls.error());
  const auto name = options.name.empty() ? local_host_name() : options.name;
  auto config =
      transport::make_session_config(protocol::Role::agent, "iomark " IOMARK_VERSION, name, options.own_address, std::move(key));
  config.tls = std::move(*tls);
  const std::string over = config.tls ? " over TLS as '" + config.tls->subject() + "'" : "";
  agent::AgentService service({std::move(*policy), std::chrono::seconds(1), name});
  SignalStop signal_stop;
  const auto stop = signal_stop.token();

  if (!options.controller.empty()) {
    auto controller = transport::parse_host_port(options.controller, options.port);
    if (!controller) return bad_input(Error(controller.error()).in_field("-i"));
    std::cerr << "iomark-agent '" << name << "': logging in to " << transport::to_string(*controller) << over << '\n';
    while (!stop.stop_requested()) {
      auto connection = transport::dial_with_backoff(
          *controller, config, transport::BackoffPolicy{}, stop, [](const Error& error, Nanoseconds retry_in) {
            std::cerr << "iomark-agent: " << error.describe() << "; retrying in "
                      << std::chrono::duration_cast<std::chrono::milliseconds>(retry_in).count() << " ms\n";
          });
      if (!connection) {
        if (stop.stop_requested()) break;
        std::cerr << "iomark-agent: " << connection.error().describe() << '\n';
        return kExitFailure;  // a wrong key or version will not fix itself
      }
      std::cerr << "iomark-agent: serving " << (*connection)->peer().describe() << '\n';
      const auto ended = service.serve(**connection, stop);
      std::cerr << "iomark-agent: " << ended.describe() << '\n';
    }
    return 0;
  }

  auto address = transport::parse_listen_address(options.listen, "0.0.0.0");
  if (!address) return bad_input(Error(address.error()).in_field("--listen"));
  auto listener = transport::Listener::open(*address, config);
  if (!listener) return bad_input(listener.error());
  std::cerr << "iomark-agent '" << name << "': listening on " << (*listener)->endpoint() << over << '\n';
  while (!stop.stop_requested()) {
    auto connection = (*listener)->accept(std::chrono::milliseconds(200));
    if (!connection) {
      if (connection.error().code() != ErrorCode::not_found) {
        std::cerr << "iomark-agent: refused: " << connection.error().describe() << '\n';
      }
      continue;
    }
    std::cerr << "iomark-agent: serving " << (*connection)->peer().describe() << '\n';
    const auto ended = service.serve(**connection, stop);
    std::cerr << "iomark-agent: " << ended.describe() << '\n';
  }
  return 0;
}

}  // namespace iomark::agent_app
