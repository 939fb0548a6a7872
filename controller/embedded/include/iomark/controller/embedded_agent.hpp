// The embedded default: an agent running in this process over an in-memory link that
// carries the same frames as TCP, so the local path cannot drift from the distributed one.
// Kept apart from controller_core so the core never depends on the agent.
#pragma once

#include <string>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/controller/manager_registry.hpp"

namespace iomark::controller {

// Starts an agent on its own thread and registers it in `registry` under this host's name.
// It may touch only `allowed_paths` (devices or files the user named) plus the test files it
// creates; mounted devices and devices with a file system are refused. It stops when the
// registry removes it or is destroyed. Errors: the SafetyPolicy's for a bad path.
[[nodiscard]] Result<void> add_embedded_agent(ManagerRegistry& registry, const std::vector<std::string>& allowed_paths);

}  // namespace iomark::controller
