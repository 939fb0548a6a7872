// --map-target [MANAGER:]OLD=NEW: running a plan written on another host unedited. A plan's
// targets carry the names its own host gave them (Windows' `2: "( SmartModular ...` or
// `C: NTFS`); mapping renames them, before the plan is paired with live managers, to a path or
// a name the agent resolves (plan_series.hpp: `/dev/sdb`, `sdb`, `/data [xfs]`, a directory).
//
// Pure functions over value types; no I/O; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::controller {

struct TargetMapping {
  std::string manager;  // the plan's manager name (case-insensitive); empty = every manager
  std::string from;     // the plan's target name, exactly
  std::string to;
  friend bool operator==(const TargetMapping&, const TargetMapping&) = default;
};

// "[MANAGER:]OLD=NEW" as given to --map-target, split at the first '='. Target names hold
// colons themselves (`C: NTFS`), so the text before the first ':' is a manager only when the
// plan has a manager of that name whose workers have the target after it; otherwise the
// whole left side is the target, on every manager.
// Errors (field --map-target): invalid_argument when there is no '=' or a side is empty;
// not_found, listing the plan's target names, when no worker has the target OLD.
[[nodiscard]] Result<TargetMapping> parse_target_map(std::string_view text, const access_specs::TestPlan& plan);

struct MappedPlan {
  access_specs::TestPlan plan;
  std::vector<std::string> notes;  // one per mapping: what it renamed, on how many workers
};

// The plan with each mapped target renamed. A manager's own mapping wins over a general one
// for the same name; the first of two equal mappings wins.
[[nodiscard]] MappedPlan map_targets(access_specs::TestPlan plan, const std::vector<TargetMapping>& mappings);

}  // namespace iomark::controller
