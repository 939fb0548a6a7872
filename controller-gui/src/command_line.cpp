#include "iomark/gui/command_line.hpp"

#include "iomark/common/units.hpp"

namespace iomark::gui {

void add_gui_flags(CLI::App& app, GuiFlags& flags) {
  app.add_option("PLAN", flags.plan, "An IOmeter .icf plan to open")->type_name("PLAN.icf");
  run_options::add_run_flags(app, flags.run, run_options::FrontEnd::gui);
  const auto connection_group = std::string(run_options::kConnectionGroup);
  auto* listen = app.add_option("--listen", flags.listen, "Accept agents logging in on [ADDR:]PORT")
                     ->type_name("[ADDR:]PORT")
                     ->capture_default_str()
                     ->group(connection_group);
  app.add_flag("--no-listen", flags.no_listen, "Do not listen for agents at start")
      ->excludes(listen)
      ->group(connection_group);
  app.add_option("--legacy-dynamo", flags.legacy_dynamo,
                 "Also accept IOmeter Dynamo 1.1.0 logins: alone on --listen's port, else on [ADDR:]PORT "
                 "(the legacy protocol has no authentication)")
      ->type_name("[[ADDR:]PORT]")
      ->expected(0, 1)
      ->group(connection_group);
  run_options::add_connection_flags(app, flags.connection, run_options::Peer::agents);
}

Result<RunSettings> run_settings(const run_options::RunFlags& flags) {
  const auto size = parse_size(flags.size);
  if (!size || size->count() == 0) {
    return fail(Error(ErrorCode::invalid_argument, "not a size: \"" + flags.size + "\"").in_field("--size"));
  }
  RunSettings settings;
  settings.run_time_s = flags.time_s;
  settings.ramp_up_s = flags.ramp_s;
  if (!flags.description.empty()) settings.description = flags.description;
  if (!flags.results_csv.empty()) settings.results_csv = flags.results_csv;
  settings.results_json = flags.results_json;
  settings.engine = flags.engine == "auto" ? std::string() : flags.engine;
  settings.buffered = flags.buffered;
  settings.test_file_bytes = size->count();
  return settings;
}

}  // namespace iomark::gui
