// A large fleet as the GUI sees it, without agents: the plan of N managers x W workers x 1
// target, the series plan the controller would make of it, and a stand-in for
// controller::run_series (Session::SeriesRunner) that reports through the same
// SeriesObserver, from the session's series thread, what a real series on that fleet
// reports: run_started, one LiveFigures per update interval with the snapshot tree of every
// manager's latest sample (realistic rates, sparse latency histograms, per-CPU usage), and
// run_finished with the whole run and its summary.
//
// Everything above the observer is the real GUI path (Session's observer, its queued
// signals, the models and views). Once the simulated fleet (protocol-exact agents
// over loopback) is merged, a test swaps this for it in two places: the fleet's agents log in
// on Session::listen("127.0.0.1:0") instead of fleet_plan() naming managers nobody runs, and
// MainWindow::start() plans the series from the connected managers instead of
// Session::set_series_runner(feed_fleet(...)) + start_series(fleet_series(...)).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/gui/session.hpp"

namespace iomark::gui::testing {

struct FleetShape {
  std::size_t managers{256};
  std::size_t workers_per_manager{16};
  std::size_t runs{1};
  std::uint32_t updates_per_run{10};  // live updates while recording (no ramp-up)
  std::chrono::milliseconds update_every{1000};
};

// "host-001" ... as the fleet's agents would call themselves (-n).
[[nodiscard]] std::string fleet_manager_name(std::size_t index);

// The .icf plan of the fleet: every manager with its workers, each driving one target at
// QD 4 with the built-in Database spec.
[[nodiscard]] access_specs::TestPlan fleet_plan(const FleetShape& shape);

// The series the controller makes of fleet_plan() on connected managers (link i runs
// manager i): `shape.runs` runs cycling the queue depth 1, 2, 4...
[[nodiscard]] controller::SeriesPlan fleet_series(const FleetShape& shape);

// The stand-in for controller::run_series on the fleet (see above). It sleeps between
// updates as the real runner does and ends within one update interval of a stop request.
[[nodiscard]] SeriesRunner feed_fleet(const FleetShape& shape);

}  // namespace iomark::gui::testing
