// What the embedded agent may touch: one decision for every front end (`iomark run` and the
// GUI), so that the same plan is granted the same paths whichever of them runs it.
#pragma once

#include <string>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"

namespace iomark::controller {

// The targets of `manager` the embedded agent must be allowed to use: the absolute target
// names that exist on this host as a device or a file. Directories are left out: the agent
// creates its test file in them, which needs no permission, and allowing a directory would
// allow everything below it. Names that do not exist are left out as well; running them
// fails later with the agent's own error.
[[nodiscard]] std::vector<std::string> embedded_agent_paths(const access_specs::Manager& manager);

// The same for every manager of `plan`, in plan order.
[[nodiscard]] std::vector<std::string> embedded_agent_paths(const access_specs::TestPlan& plan);

// Whether `path` (canonical) is one of `granted` or lies below a granted directory, as the
// agent's SafetyPolicy decides: an agent that reports `granted` will accept `path`.
[[nodiscard]] bool embedded_agent_grants(const std::vector<std::string>& granted, const std::string& path);

}  // namespace iomark::controller
