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

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/controller/series_runner.hpp"

namespace iomark::controller {

struct PlanSeriesOptions {
  std::vector<std::pair<std::string, std::string>> manager_map;  // plan name -> live name
  // The size of iobw.tst for a directory target whose worker says "Maximum Disk Size 0"
  // (IOmeter would fill the whole file system).
  std::uint64_t default_test_file_bytes{1ULL << 30};
  std::optional<std::uint32_t> run_time_s;  // overrides the plan's (required when it says 0)
  std::optional<std::uint32_t> ramp_up_s;
  std::string engine;
  bool buffered{false};
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
