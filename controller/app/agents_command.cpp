// iomark agents: what each manager reports about itself (its inventory), including the
// engines `auto` has measured on its targets so far.
#include <fstream>
#include <iostream>
#include <memory>
#include <spdlog/spdlog.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/controller/embedded_agent.hpp"
#include "iomark/cli_text/inventory_view.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/run_options/run_flags.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/session_config.hpp"

namespace iomark::cli {
namespace {

struct AgentsOptions {
  std::vector<std::string> managers;
  std::string json;  // "" none, "-" standard output, else a file
  run_options::ConnectionFlags connection;
};

int show_agents(const AgentsOptions& options) {
  const bool embedded = options.managers.empty();
  auto settings = registry_options(options.connection, embedded);
  if (!settings) return bad_input(settings.error());
  controller::ManagerEvents events;
  controller::ManagerRegistry registry(std::move(*settings), events);
  if (embedded) {
    // This host as the embedded agent sees it: engines only, as it may touch nothing.
    if (auto added = controller::add_embedded_agent(registry, {}); !added) return connect_failure(added.error());
  }
  for (const auto& manager : options.managers) {
    auto address = transport::parse_host_port(manager, transport::kDefaultPort);
    if (!address) return bad_input(Error(address.error()).in_field("--manager"));
    if (auto dialled = registry.dial(*address); !dialled) return connect_failure(dialled.error());
  }
  std::vector<cli_text::ManagerInventory> managers;
  for (const auto* link : registry.links()) {
    managers.push_back({link->name(), link->peer().endpoint, link->peer().build, link->inventory()});
  }
  const bool json_to_stdout = options.json == "-";
  if (!json_to_stdout) {
    for (const auto& manager : managers) std::cout << cli_text::inventory_text(manager);
  }
  if (options.json.empty()) return to_int(ExitCode::ok);
  const std::string json = cli_text::inventories_json(managers);
  if (json_to_stdout) {
    std::cout << json;
    return to_int(ExitCode::ok);
  }
  std::ofstream out(options.json, std::ios::binary | std::ios::trunc);
  if (!(out << json) || !out.flush()) {
    return bad_input(Error(ErrorCode::io_error, "cannot write the JSON").at({options.json, 0}));
  }
  return to_int(ExitCode::ok);
}

}  // namespace

void add_agents_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<AgentsOptions>();
  auto* command = app.add_subcommand("agents", "What each manager offers: host, engines, targets, auto's engine choices");
  command->footer("Without --manager: this host, as the embedded agent sees it. Engine choices appear once a run\n"
                  "with --engine auto has measured a target on that agent.");
  command->add_option("--manager", options->managers, "Dial a listening agent at HOST:PORT (repeatable)")
      ->type_name("HOST:PORT")
      ->group(std::string(run_options::kConnectionGroup));
  command->add_option("--json", options->json, "Also write the inventories as JSON here ('-': standard output only)")
      ->type_name("FILE");
  run_options::add_connection_flags(*command, options->connection, run_options::Peer::agents);
  command->callback([&exit_code, options] { exit_code = show_agents(*options); });
}

}  // namespace iomark::cli
