#include "iomark/controller/embedded_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "iomark/targets/safety_policy.hpp"

namespace iomark::controller {

std::vector<std::string> embedded_agent_paths(const access_specs::Manager& manager) {
  std::vector<std::string> paths;
  for (const auto& worker : manager.workers) {
    for (const auto& target : worker.targets.value_or(std::vector<access_specs::Target>{})) {
      if (target.type != access_specs::WorkerType::disk || !target.name.starts_with('/')) continue;
      std::string path = target.name;
      // A file system as the GUI and IOmeter name it: "MOUNT [type]" (which must exist).
      const auto bracket = path.rfind(" [");
      const bool file_system = bracket != std::string::npos && path.back() == ']';
      if (file_system) path.resize(bracket);
      std::error_code error;
      const std::filesystem::path asked(path);
      const bool exists = std::filesystem::exists(asked, error);
      // A file that does not exist yet is made at the size asked, if its directory exists.
      if (exists || (!file_system && std::filesystem::is_directory(asked.parent_path(), error))) {
        paths.push_back(std::move(path));
      }
    }
  }
  return paths;
}

std::vector<std::string> embedded_agent_paths(const access_specs::TestPlan& plan) {
  std::vector<std::string> paths;
  for (const auto& manager : plan.managers.value_or(std::vector<access_specs::Manager>{})) {
    for (auto& path : embedded_agent_paths(manager)) paths.push_back(std::move(path));
  }
  return paths;
}

bool embedded_agent_grants(const std::vector<std::string>& granted, const std::string& path) {
  return std::any_of(granted.begin(), granted.end(),
                     [&](const std::string& root) { return targets::SafetyPolicy::covers(root, path); });
}

}  // namespace iomark::controller
