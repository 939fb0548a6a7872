// iomark-gui's command line: the plan to open, where agents log in, the key and TLS, and the
// run flags of `iomark run` that make sense in the window, all from run_options' one table so
// that names, limits and --help read the same as the CLI's. Parsed before QApplication
// exists, so --help and --version work without a display.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/run_options/run_flags.hpp"

namespace iomark::gui {

struct GuiFlags {
  std::string plan;
  std::string listen{"1066"};
  bool no_listen{false};
  std::optional<std::string> legacy_dynamo;  // [ADDR:]PORT for Dynamo 1.1.0 logins; empty: --listen's port
  run_options::ConnectionFlags connection;
  run_options::RunFlags run;
};

// Declares every flag of iomark-gui on `app`, bound to `flags` (which must outlive parsing).
void add_gui_flags(CLI::App& app, GuiFlags& flags);

// The run flags as the window's settings. Errors: invalid_argument, field "--size", for a
// size parse_size() does not read (CLI11 has checked the other values); field
// "--find-max-iops" when --steady-state or --pts-iops is given too; field "--steady-state" for a
// figure other than iops with --pts-iops (make_run_request's).
[[nodiscard]] Result<RunSettings> run_settings(const run_options::RunFlags& flags);

}  // namespace iomark::gui
