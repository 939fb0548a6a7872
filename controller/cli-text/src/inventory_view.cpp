#include "iomark/cli_text/inventory_view.hpp"

#include <nlohmann/json.hpp>

#include "iomark/common/units.hpp"
#include "iomark/cli_text/text_table.hpp"

namespace iomark::cli_text {
namespace {

using Json = nlohmann::ordered_json;

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text.empty() ? "-" : text;
}

std::string allowed_text(const protocol::Inventory& inventory) {
  if (!inventory.allowed_paths.empty()) return joined(inventory.allowed_paths);
  return inventory.write_scope ? "nothing (no --allow: every target is refused)"
                               : "not reported (an agent from before the write scope)";
}

std::string_view mount_state_name(protocol::MountState state) {
  switch (state) {
    case protocol::MountState::not_mounted:
      return "not_mounted";
    case protocol::MountState::mounted:
      return "mounted";
    case protocol::MountState::partition_mounted:
      return "partition_mounted";
    case protocol::MountState::swap:
      return "swap";
  }
  return "unknown";
}

Json manager_json(const ManagerInventory& manager) {
  const auto& inventory = manager.inventory;
  Json json{{"name", manager.name},
            {"endpoint", manager.endpoint},
            {"build", manager.build},
            {"host_name", inventory.host_name},
            {"cpu_count", inventory.cpu_count},
            {"os_name", inventory.os_name},
            {"kernel_release", inventory.kernel_release},
            {"engines", inventory.engines},
            {"allowed_paths", inventory.allowed_paths},
            {"write_scope", inventory.write_scope}};
  Json& devices = json["block_devices"] = Json::array();
  for (const auto& device : inventory.block_devices) {
    devices.push_back({{"path", device.path},
                       {"size_bytes", device.size_bytes},
                       {"logical_sector_bytes", device.logical_sector_bytes},
                       {"model", device.model},
                       {"mount_state", mount_state_name(device.mount_state)},
                       {"has_signature", device.has_signature}});
  }
  Json& file_systems = json["file_systems"] = Json::array();
  for (const auto& file_system : inventory.file_systems) {
    file_systems.push_back({{"mount_point", file_system.mount_point},
                            {"source", file_system.source},
                            {"type", file_system.type},
                            {"total_bytes", file_system.total_bytes},
                            {"free_bytes", file_system.free_bytes},
                            {"block_bytes", file_system.block_bytes},
                            {"test_file_bytes", file_system.test_file_bytes}});
  }
  Json& targets = json["target_engines"] = Json::array();
  for (const auto& target : inventory.target_engines) {
    Json choices = Json::array();
    for (const auto& choice : target.choices) {
      choices.push_back({{"queue_depth", choice.queue_depth},
                         {"block_bytes", choice.block_bytes},
                         {"engine", choice.engine},
                         {"reason", choice.reason}});
    }
    targets.push_back({{"path", target.path}, {"usable_engines", target.usable_engines}, {"choices", choices}});
  }
  return json;
}

}  // namespace

std::string inventory_text(const ManagerInventory& manager) {
  const auto& inventory = manager.inventory;
  std::string text = "manager '" + manager.name + "' (" + manager.endpoint + ", " + manager.build + "): " +
                     inventory.host_name + ", " + std::to_string(inventory.cpu_count) + " CPUs, " + inventory.os_name +
                     " " + inventory.kernel_release + "\n";
  text += "  engines: " + joined(inventory.engines) + "\n";
  text += "  allowed: " + allowed_text(inventory) + "\n";
  if (inventory.target_engines.empty()) {
    return text + "  engine choices: none measured yet (auto measures each target at its first run)\n";
  }
  TextTable table({{"target"}, {"usable engines"}, {"QD", Align::right}, {"size", Align::right}, {"engine"}, {"why"}});
  for (const auto& target : inventory.target_engines) {
    for (const auto& choice : target.choices) {
      table.add_row({target.path, joined(target.usable_engines), std::to_string(choice.queue_depth),
                     format_size(Bytes(choice.block_bytes)), choice.engine, choice.reason});
    }
  }
  text += "  engine choices:\n";
  const std::string rendered = table.render();
  for (std::size_t start = 0; start < rendered.size();) {
    const auto end = rendered.find('\n', start);
    text += "    " + rendered.substr(start, end - start + 1);
    start = end + 1;
  }
  return text;
}

std::string inventories_json(std::span<const ManagerInventory> managers) {
  Json list = Json::array();
  for (const auto& manager : managers) list.push_back(manager_json(manager));
  return Json{{"managers", list}}.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace iomark::cli_text
