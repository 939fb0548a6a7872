#include "serve.hpp"

#include <spdlog/spdlog.h>
#include <stop_token>

#include "iomark/agent/agent_service.hpp"
#include "iomark/agent/host_stats.hpp"
#include "iomark/app_runtime/credentials.hpp"
#include "iomark/app_runtime/exit_status.hpp"
#include "iomark/app_runtime/service_notify.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/common/host_name.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/session_config.hpp"
#include "iomark/transport/tcp.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::agent_app {

using app_runtime::bad_input;

namespace {

// A session that could not be established: io_error is the network (unreachable, refused,
// port in use) and may fix itself; anything else is the peer refusing us (key, version, TLS).
int connection_failed(const Error& error) {
  return app_runtime::exit_with(error.code() == ErrorCode::io_error ? ExitCode::cannot_connect : ExitCode::refused, error);
}

// A port that cannot be bound (in use, an address not resolving) may be free later; a bad
// configuration will not be.
int listen_failed(const Error& error) {
  return app_runtime::exit_with(error.code() == ErrorCode::invalid_argument ? ExitCode::bad_input : ExitCode::cannot_connect,
                                error);
}

// The service's events, as the agent's log lines.
class LoggingObserver final : public agent::ServiceObserver {
 public:
  void assigned(std::uint64_t run_id, std::size_t workers, std::size_t targets, const std::string& engine) override {
    spdlog::info("run {}: assigned {} worker(s), {} target(s), engine {}", run_id, workers, targets, engine);
  }
  void preparing(const std::string& path, Bytes size) override {
    spdlog::info("preparing {} ({})", path, format_size(size));
  }
  void prepared(const std::string& path) override { spdlog::info("prepared {}", path); }
  void run_started(std::uint64_t run_id) override { spdlog::info("run {}: I/O started", run_id); }
  void run_stopped(std::uint64_t run_id, std::string_view how) override {
    spdlog::info("run {}: stopped ({})", run_id, how);
  }
  void refused(std::string_view request, const Error& why) override {
    spdlog::warn("refused {}: {}", request, why.describe());
  }
};

void serve_one(agent::AgentService& service, protocol::Connection& connection, std::stop_token stop) {
  spdlog::info("session with {}: authenticated", connection.peer().describe());
  const auto ended = service.serve(connection, std::move(stop));
  spdlog::info("session with {} ended: {}", connection.peer().describe(), ended.describe());
}

}  // namespace

int serve(const ServeOptions& options, std::stop_token stop) {
  if (options.controller.empty() == options.listen.empty()) {
    return bad_input(Error(ErrorCode::invalid_argument,
                           "name the controller with -i HOST[:PORT], or wait for one with --listen [ADDR:]PORT "
                           "(exactly one of them)"));
  }
  auto policy = targets::SafetyPolicy::create(
      options.allow, options.allow_destructive ? targets::Destructive::allow : targets::Destructive::refuse);
  if (!policy) return bad_input(Error(policy.error()).in_field("--allow"));
  auto credentials = app_runtime::load_credentials(options.connection, app_runtime::KeyNeed::required);
  if (!credentials) return bad_input(credentials.error());
  const auto name = options.name.empty() ? local_host_name() : options.name;
  policy->set_agent_name(name);
  auto config =
      transport::make_session_config(protocol::Role::agent, "iomark " IOMARK_VERSION, name, options.own_address,
                                   std::move(credentials->key));
  config.tls = std::move(credentials->tls);
  const std::string over = config.tls ? " over TLS as '" + config.tls->subject() + "'" : "";
  LoggingObserver observer;
  agent::AgentService service({std::move(*policy), std::chrono::seconds(1), name, &observer});

  if (!options.controller.empty()) {
    auto controller = transport::parse_host_port(options.controller, options.port);
    if (!controller) return bad_input(Error(controller.error()).in_field("-i"));
    const auto where = transport::to_string(*controller);
    spdlog::info("agent '{}': logging in to {}{}", name, where, over);
    bool ready = false;
    while (!stop.stop_requested()) {
      auto connection = transport::dial_with_backoff(
          *controller, config, transport::BackoffPolicy{}, stop, [&where](const Error& error, Nanoseconds retry_in) {
            const auto retry_ms = std::chrono::duration_cast<std::chrono::milliseconds>(retry_in).count();
            spdlog::warn("{}; retrying in {} ms", error.describe(), retry_ms);
            app_runtime::notify_status(fmt::format("logging in to {}: retrying in {} ms", where, retry_ms));
          });
      if (!connection) {
        if (stop.stop_requested()) break;
        return connection_failed(connection.error());  // a wrong key or version will not fix itself
      }
      if (!ready) app_runtime::notify_ready("serving the controller at " + where);
      ready = true;
      serve_one(service, **connection, stop);
    }
    app_runtime::notify_stopping();
    spdlog::info("stopped");
    return to_int(ExitCode::ok);
  }

  auto address = transport::parse_listen_address(options.listen, "0.0.0.0");
  if (!address) return bad_input(Error(address.error()).in_field("--listen"));
  auto listener = transport::Listener::open(*address, config);
  if (!listener) return listen_failed(listener.error());
  spdlog::info("agent '{}': listening on {}{}", name, (*listener)->endpoint(), over);
  app_runtime::notify_ready("listening on " + (*listener)->endpoint());
  while (!stop.stop_requested()) {
    auto connection = (*listener)->accept(std::chrono::milliseconds(200));
    if (!connection) {
      if (connection.error().code() != ErrorCode::timed_out) {
        spdlog::warn("session refused: {}", connection.error().describe());
      }
      continue;
    }
    serve_one(service, **connection, stop);
  }
  app_runtime::notify_stopping();
  spdlog::info("stopped");
  return to_int(ExitCode::ok);
}

}  // namespace iomark::agent_app
