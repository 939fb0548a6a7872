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
      if (!target.name.starts_with('/')) continue;
      std::error_code error;
      const auto status = std::filesystem::status(target.name, error);
      if (!error && std::filesystem::exists(status) && !std::filesystem::is_directory(status)) {
        paths.push_back(target.name);
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
