// The managers the GUI knows of, as plain values: what a connected agent told about itself,
// and how the plan's managers pair with the connected ones. No Qt here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::gui {

// A connected manager: a copy of what its link reported when it joined (links themselves
// belong to the series runner's thread while a series runs).
struct LiveManager {
  std::string name;      // the agent's -n name
  std::string endpoint;  // "10.0.0.5:40112", or "in-process" for the embedded agent
  std::string build;     // "iomark 0.1.0"
  protocol::Inventory inventory;
  bool open{true};  // false once the connection is lost (the agent quit, the network broke)

  [[nodiscard]] bool embedded() const { return endpoint == "in-process"; }
  friend bool operator==(const LiveManager&, const LiveManager&) = default;
};

// Which connected manager runs each plan manager: by name (case-insensitive) first, then the
// plan managers left over take the connected managers left over, in order. Managers whose
// connection is lost run nothing. nullopt: no
// connected manager is free for it. This is the pairing the run asks the controller core for
// (PlanSeriesOptions::manager_map), so what the topology shows is what runs.
[[nodiscard]] std::vector<std::optional<std::size_t>> pair_managers(const std::vector<access_specs::Manager>& planned,
                                                                    const std::vector<LiveManager>& live);

// The pairs above as PlanSeriesOptions::manager_map entries (plan name -> live name).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> manager_map(
    const std::vector<access_specs::Manager>& planned, const std::vector<LiveManager>& live);

}  // namespace iomark::gui
