// `iomark-agent --protocol iometer`: an IOmeter 1.1.0 GUI drives this agent as if it were
// Dynamo (agent/service legacy_session.hpp does the protocol; this file only wires it).
#include <chrono>
#include <thread>

#include <spdlog/spdlog.h>

#include "iomark/agent/legacy_session.hpp"
#include "iomark/app_runtime/exit_status.hpp"
#include "iomark/app_runtime/service_notify.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/common/host_name.hpp"
#include "iomark/transport/host_port.hpp"
#include "serve.hpp"

namespace iomark::agent_app {

namespace {

// Dynamo retries a refused login every 200 ms, forever: the GUI may start later.
constexpr auto kLoginRetry = std::chrono::milliseconds(200);

}  // namespace

int serve_iometer(const ServeOptions& options, std::stop_token stop) {
  using app_runtime::bad_input;
  if (options.controller.empty() || !options.listen.empty()) {
    return bad_input(Error(ErrorCode::invalid_argument,
                           "--protocol iometer logs in to the IOmeter GUI named by -i HOST[:PORT] (no --listen)"));
  }
  if (!options.connection.key_file.empty() || !options.connection.tls_cert.empty()) {
    return bad_input(Error(ErrorCode::invalid_argument,
                           "--protocol iometer has no authentication and no TLS: drop --key-file and --tls-*"));
  }
  auto gui = transport::parse_host_port(options.controller, options.port);
  if (!gui) return bad_input(Error(gui.error()).in_field("-i"));
  auto policy = targets::SafetyPolicy::create(
      options.allow, options.allow_destructive ? targets::Destructive::allow : targets::Destructive::refuse);
  if (!policy) return bad_input(Error(policy.error()).in_field("--allow"));

  agent::LegacyAgentOptions legacy;
  legacy.manager_name = options.name.empty() ? local_host_name() : options.name;
  legacy.own_address = options.own_address;
  policy->set_agent_name(legacy.manager_name);
  legacy.policy = std::move(*policy);
  legacy.notice = [](const std::string& text) { spdlog::info("{}", text); };
  legacy.refusal = [](const std::string& text) { spdlog::error("{}", text); };
  // Describing every message costs a little: only when someone reads it (--log-level trace).
  if (spdlog::should_log(spdlog::level::trace)) {
    legacy.trace = [](const std::string& text) { spdlog::trace("{}", text); };
  }
  const std::string where = transport::to_string(*gui);
  spdlog::warn("agent '{}': IOmeter protocol, logging in to {} (the legacy protocol has no authentication: anyone "
               "who reaches the command port can drive this agent within --allow)",
               legacy.manager_name, where);

  const auto stopped = [] {
    app_runtime::notify_stopping();
    return to_int(ExitCode::ok);
  };
  agent::LegacySession session(legacy);
  std::string last_problem;  // said once, not every 200 ms
  bool ready = false;
  while (!stop.stop_requested()) {
    auto channel = agent::legacy_login(legacy, gui->host, gui->port, stop);
    if (!channel) {
      const auto code = channel.error().code();
      if (code == ErrorCode::cancelled) return stopped();
      if (code == ErrorCode::io_error || code == ErrorCode::not_found || code == ErrorCode::timed_out) {
        if (channel.error().describe() != last_problem) {
          last_problem = channel.error().describe();
          spdlog::warn("{}; retrying", last_problem);
          app_runtime::notify_status("logging in to the IOmeter GUI at " + where + ": " + last_problem + "; retrying");
        }
        std::this_thread::sleep_for(kLoginRetry);  // the GUI is not there (yet); the loop checks `stop`
        continue;
      }
      // WRONG_VERSION will not change by retrying: "refused", which the unit does not restart.
      return app_runtime::exit_with(code == ErrorCode::unsupported ? ExitCode::refused : ExitCode::run_failed,
                                    channel.error());
    }
    last_problem.clear();
    spdlog::info("logged in to the IOmeter GUI at {}; it connected back", where);
    if (!ready) app_runtime::notify_ready("serving the IOmeter GUI at " + where);
    ready = true;
    auto ended = session.serve(*channel, stop);
    if (!ended) {
      // Dynamo exits when its command channel breaks; so does this agent, with the reason.
      return app_runtime::exit_with(ExitCode::run_failed, ended.error());
    }
    switch (*ended) {
      case agent::LegacyEnd::exit_manager:
        spdlog::info("EXIT from the GUI: done");
        return to_int(ExitCode::ok);
      case agent::LegacyEnd::closed:
        spdlog::info("the GUI closed the connection with no test running: done");
        return to_int(ExitCode::ok);
      case agent::LegacyEnd::stopped: return stopped();
      case agent::LegacyEnd::reset: spdlog::info("RESET: logging in again"); break;
    }
  }
  return stopped();
}

}  // namespace iomark::agent_app
