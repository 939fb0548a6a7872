// The series of `iomark run PLAN.icf`: the plan's runs (plan_expansion.hpp) mapped onto the
// managers that are actually connected, with every target resolved on its manager before
// anything starts.
//
// Managers: --map OLD=NEW first, then by name (case-insensitive), then the rest in order,
// each pairing reported as a note. Targets: paths are used as they are (/dev/sdb,
// /data/iobw.tst, /tmp/t.dat, a directory for iobw.tst); IOmeter's Linux names map onto the
// manager's inventory ("sdb" -> /dev/sdb, "/data [xfs]" -> the mount point /data). A name
// that maps to nothing there (a Windows drive "I:local", a template's "[*TARGET*]") is an
// error naming manager, worker and target.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "iomark/access_specs/run_request.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/controller/series_runner.hpp"

namespace iomark::controller {

struct PlanSeriesOptions {
  std::vector<std::pair<std::string, std::string>> manager_map{};  // plan name -> live name
  // What the command line or the window sets over the plan: run_time_s (required when the
  // plan says 0) and ramp_up_s when given, the engine, buffered I/O, and test_file_bytes for
  // iobw.tst in a directory target whose worker says "Maximum Disk Size 0" (IOmeter would
  // fill the whole file system). The plan says the rest.
  access_specs::RunRequest request{};
};

struct PlanSeries {
  SeriesPlan series;
  std::vector<std::string> notes;  // how managers were paired, what was assumed
};

[[nodiscard]] Result<PlanSeries> plan_series(const access_specs::TestPlan& plan,
                                             const std::vector<ManagerLink*>& links,
                                             const PlanSeriesOptions& options);

// "OLD=NEW" as given to --map.
[[nodiscard]] Result<std::pair<std::string, std::string>> parse_manager_map(std::string_view text);

}  // namespace iomark::controller
