// iomark-agent: the load generator ("dynamo"). main() only wires the commands together.
#include <CLI/CLI.hpp>

#include "engines_command.hpp"
#include "iomark/run_options/bash_completion.hpp"
#include "iomark/run_options/run_flags.hpp"
#include <spdlog/spdlog.h>

#include "iomark/app_runtime/logging.hpp"
#include "iomark/app_runtime/stop_signals.hpp"
#include "iomark/common/exit_code.hpp"
#include "run_local.hpp"
#include "serve.hpp"

int main(int argc, char** argv) {
  iomark::app_runtime::StopSignals stop_signals;  // first: before any thread exists
  CLI::App app{"iomark-agent: the load generator of iomark (IOmeter's dynamo)"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "iomark-agent " IOMARK_VERSION);
  // The service reads its options from /etc/iomark/agent.conf; flags on the command line win.
  app.set_config("--config", "", "Read options from FILE: one `name = value` a line (long option names)")
      ->type_name("FILE");
  app.allow_config_extras(CLI::config_extras_mode::error);  // a misspelt name is an error, not ignored
  int exit_code = 0;
  // The daemon's lines carry timestamps; run-local's read as a command's output.
  iomark::app_runtime::LogOptions log_options;
  CLI::App* run_local = nullptr;
  iomark::app_runtime::add_log_options(app, log_options, "iomark-agent", [&run_local] {
    return run_local != nullptr && run_local->parsed() ? iomark::app_runtime::ConsoleStyle::plain
                                                       : iomark::app_runtime::ConsoleStyle::timestamped;
  });

  // Daemon mode, with dynamo's habits: -i controller, -m own address, -n manager name.
  iomark::agent_app::ServeOptions serve;
  app.add_option("--protocol", serve.protocol, "Wire protocol: iomark, or iometer (an IOmeter 1.1.0 GUI at -i drives this agent)")
      ->type_name("PROTOCOL")
      ->capture_default_str()
      ->check(CLI::IsMember({"iomark", "iometer"}));
  app.add_option("-i,--controller", serve.controller, "Controller to log in to: HOST[:PORT]")
      ->type_name("HOST[:PORT]");
  app.add_option("-p,--port", serve.port, "The controller's port when -i names none")
      ->type_name("PORT")
      ->capture_default_str();
  app.add_option("-m,--address", serve.own_address, "This agent's address, as the controller should show it")
      ->type_name("ADDRESS");
  app.add_option("-n,--name", serve.name, "Manager name (default: host name)")->type_name("NAME");
  app.add_option("--listen", serve.listen, "Wait for a controller on [ADDR:]PORT instead of dialling one")
      ->type_name("[ADDR:]PORT");
  iomark::run_options::add_connection_flags(app, serve.connection, iomark::run_options::Peer::controller);
  app.add_option("--allow", serve.allow, "A device, file or directory the controller may use (repeatable)")
      ->type_name("PATH");
  app.add_flag("--allow-destructive", serve.allow_destructive,
               "Allow writing to block devices that are mounted, partitioned or formatted");

  iomark::agent_app::RunLocalOptions local;
  run_local = app.add_subcommand("run-local", "Run one test on this host, without a controller");
  iomark::run_options::add_run_flags(*run_local, local.run, iomark::run_options::FrontEnd::agent_run_local);
  run_local->add_flag("--allow-destructive", local.allow_destructive,
                      "Allow writing to block devices that are mounted, partitioned or formatted")
      ->group(std::string(iomark::run_options::kWorkloadGroup));
  run_local->callback([&] { exit_code = iomark::agent_app::run_local(local, stop_signals); });

  auto* engines = app.add_subcommand("engines", "List the I/O engines that work on this host, and why the others do not");
  engines->callback([&] { exit_code = iomark::agent_app::list_engines(); });
  iomark::run_options::add_completion_command(app);

  app.callback([&] {
    if (!app.get_subcommands().empty()) return;
    // Both daemons stop on SIGINT or SIGTERM with exit code 0 (the unit's clean stop).
    const auto stop = stop_signals.request_stop_on(
        [](int signal_number) { spdlog::info("stopping on SIG{}", sigabbrev_np(signal_number)); });
    exit_code = serve.protocol == "iometer" ? iomark::agent_app::serve_iometer(serve, stop)
                                            : iomark::agent_app::serve(serve, stop);
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& success) {
    return app.exit(success);
  } catch (const CLI::RuntimeError& failed) {  // reported where it was thrown
    return failed.get_exit_code();
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return iomark::to_int(iomark::ExitCode::usage);
  }
  return exit_code;
}
