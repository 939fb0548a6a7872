// Whether an agent will refuse a disk target, decided from its inventory before anything is
// sent, so that `iomark run` and the GUI's Start refuse a plan naming such a target up front
// (docs/write-scope.md). The agent decides finally, beneath its allowed directories'
// descriptors; this check only spares a series that would be refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::controller {

// Why the agent named `agent` with `inventory` refuses `path`, or nullopt when nothing says so:
// a plain absolute path (no "." or ".." component) that no --allow entry covers, from an agent
// that reports allowed paths. Relative and unnormalised paths, and peers that report none (an
// agent started without --allow, Dynamo), are left to the agent, whose refusal `iomark run`
// also turns into exit 3.
// The text names the agent, the path and its --allow list.
[[nodiscard]] std::optional<std::string> target_refusal(std::string_view agent, const protocol::Inventory& inventory,
                                                        std::string_view path);

// target_refusal as an error: validation_error in field --allow (`iomark run` exits 3).
[[nodiscard]] Result<void> check_target_scope(std::string_view agent, const protocol::Inventory& inventory,
                                              std::string_view path);

}  // namespace iomark::controller
