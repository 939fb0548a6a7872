#include "iomark/gui/command_line.hpp"

#include "iomark/run_options/run_flags.hpp"


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
  auto request = run_options::make_run_request(flags);
  if (!request) return fail(request.error());
  RunSettings settings;
  settings.run_time_s = request->run_time_s;
  settings.ramp_up_s = request->ramp_up_s;
  // Not the name `iomark pts iops` gives a series without one: the plan's description stays.
  if (!flags.description.empty()) settings.description = request->description;
  if (!request->results_csv.empty()) settings.results_csv = request->results_csv;
  settings.results_json = request->results_json;
  settings.engine = request->engine;
  settings.buffered = request->buffered;
  settings.test_file_bytes = request->test_file_bytes;
  // Test Setup holds one or the other, as `iomark run` runs one or the other.
  if (request->steady_state && request->find_max_iops) {
    return fail(Error(ErrorCode::invalid_argument, "a search is not run in rounds: leave out --steady-state")
                    .in_field("--find-max-iops"));
  }
  settings.steady_state = request->steady_state;
  settings.find_max_iops = request->find_max_iops;
  // The PTS IOPS test is preconditioned whatever the page's box says; either flag sets the box.
  if (flags.precondition || flags.pts_iops) settings.precondition_passes = request->precondition_passes;
  if (!request->precondition_spec.empty()) settings.precondition_spec = request->precondition_spec;
  settings.pts_iops = request->pts_iops;
  return settings;
}

}  // namespace iomark::gui
