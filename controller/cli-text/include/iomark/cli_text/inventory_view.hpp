// What `iomark agents` shows of each manager's inventory (and what a GUI may show): host
// facts, the engines that run there and, per target, the engines `auto` measured with its
// choice per queue depth and read size. Pure formatting of plain values.
#pragma once

#include <span>
#include <string>

#include "iomark/protocol/messages.hpp"

namespace iomark::cli_text {

// One manager as the controller knows it.
struct ManagerInventory {
  std::string name;      // the manager's name (the agent's -n)
  std::string endpoint;  // where it is ("127.0.0.1:1066", "in-process")
  std::string build;     // its Hello build string
  protocol::Inventory inventory;
};

// Human-readable, for a terminal: a header line per manager (name, endpoint, build, host,
// CPUs, OS, kernel), its engines and allowed paths, then a table of the measured engine
// choices (target, QD, read size, engine, reason) or a line saying none was measured yet.
[[nodiscard]] std::string inventory_text(const ManagerInventory& manager);

// {"managers": [{"name", "endpoint", "build", "host_name", "cpu_count", "os_name",
// "kernel_release", "engines", "allowed_paths", "block_devices": [...], "file_systems":
// [...], "target_engines": [{"path", "usable_engines", "choices": [{"queue_depth",
// "block_bytes", "engine", "reason"}]}]}]}, indented; bytes that are not UTF-8 (paths may
// hold any) become U+FFFD.
[[nodiscard]] std::string inventories_json(std::span<const ManagerInventory> managers);

}  // namespace iomark::cli_text
