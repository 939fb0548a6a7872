// What the embedded agent may touch: one decision for every front end (`iomark run` and the
// GUI), so that the same plan is granted the same paths whichever of them runs it.
#pragma once

#include <string>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"

namespace iomark::controller {

// The targets of `manager` the embedded agent must be allowed to use: the absolute disk
// target names (a file system's "MOUNT [type]" as MOUNT) that exist on this host, or that do
// not exist yet in a directory that does (the agent creates such a file at the size asked).
// They are the embedded agent's whole write scope (docs/write-scope.md): a directory named
// here allows its test file and everything below it, which the user asked for by naming it.
// Names whose directory does not exist are left out; running them fails with the agent's own
// error, naming the path.
[[nodiscard]] std::vector<std::string> embedded_agent_paths(const access_specs::Manager& manager);

// The same for every manager of `plan`, in plan order.
[[nodiscard]] std::vector<std::string> embedded_agent_paths(const access_specs::TestPlan& plan);

// Whether `path` (canonical) is one of `granted` or lies below a granted directory, as the
// agent's SafetyPolicy decides: an agent that reports `granted` will accept `path`.
[[nodiscard]] bool embedded_agent_grants(const std::vector<std::string>& granted, const std::string& path);

}  // namespace iomark::controller
