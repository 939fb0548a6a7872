#include "iomark/controller/target_map.hpp"

#include <algorithm>

#include "iomark/common/ascii.hpp"


namespace iomark::controller {

namespace {

using access_specs::Manager;
using access_specs::Target;
using access_specs::TestPlan;

const std::vector<Manager>& managers_of(const TestPlan& plan) {
  static const std::vector<Manager> none;
  return plan.managers ? *plan.managers : none;
}

bool has_target(const Manager& manager, std::string_view name) {
  return std::any_of(manager.workers.begin(), manager.workers.end(), [&](const access_specs::Worker& worker) {
    return worker.targets && std::any_of(worker.targets->begin(), worker.targets->end(),
                                         [&](const Target& target) { return target.name == name; });
  });
}

// "'a', 'b'", each name once in plan order, or "none" for a plan without targets.
std::string target_list(const TestPlan& plan) {
  std::vector<std::string> names;
  for (const auto& manager : managers_of(plan)) {
    for (const auto& worker : manager.workers) {
      for (const auto& target : worker.targets.value_or(std::vector<Target>{})) {
        if (std::find(names.begin(), names.end(), target.name) == names.end()) names.push_back(target.name);
      }
    }
  }
  if (names.empty()) return "none";
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "'" : ", '") + name + "'";
  return list;
}

Error mapping_error(ErrorCode code, std::string message) {
  return Error(code, std::move(message)).in_field("--map-target");
}

// The mapping for `name` on `manager`: its own first, else a general one; nullptr if none.
const TargetMapping* mapping_for(const std::vector<TargetMapping>& mappings, const Manager& manager,
                                 std::string_view name) {
  const TargetMapping* general = nullptr;
  for (const auto& mapping : mappings) {
    if (mapping.from != name) continue;
    if (mapping.manager.empty()) {
      if (general == nullptr) general = &mapping;
    } else if (ascii::iequals(mapping.manager, manager.name)) {
      return &mapping;
    }
  }
  return general;
}

}  // namespace

Result<TargetMapping> parse_target_map(std::string_view text, const TestPlan& plan) {
  const auto equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
    return fail(mapping_error(ErrorCode::invalid_argument, "\"" + std::string(text) + "\" is not [MANAGER:]OLD=NEW"));
  }
  const auto left = text.substr(0, equals);
  const std::string to(text.substr(equals + 1));
  const auto& managers = managers_of(plan);
  const Manager* named_manager = nullptr;
  if (const auto colon = left.find(':'); colon != std::string_view::npos) {
    const auto manager_name = left.substr(0, colon);
    const auto found = std::find_if(managers.begin(), managers.end(),
                                    [&](const Manager& manager) { return ascii::iequals(manager.name, manager_name); });
    if (found != managers.end()) {
      named_manager = &*found;
      const auto target = left.substr(colon + 1);
      if (has_target(*found, target)) return TargetMapping{found->name, std::string(target), to};
    }
  }
  if (std::any_of(managers.begin(), managers.end(), [&](const Manager& manager) { return has_target(manager, left); })) {
    return TargetMapping{{}, std::string(left), to};
  }
  if (named_manager != nullptr) {
    return fail(mapping_error(ErrorCode::not_found, "the plan's manager '" + named_manager->name + "' has no target '" +
                                                        std::string(left.substr(left.find(':') + 1)) +
                                                        "' (the plan's targets: " + target_list(plan) + ")"));
  }
  return fail(mapping_error(ErrorCode::not_found, "the plan has no target '" + std::string(left) +
                                                      "' (its targets: " + target_list(plan) + ")"));
}

MappedPlan map_targets(TestPlan plan, const std::vector<TargetMapping>& mappings) {
  std::vector<std::size_t> workers_renamed(mappings.size(), 0);
  MappedPlan mapped;
  if (plan.managers) {
    for (auto& manager : *plan.managers) {
      for (auto& worker : manager.workers) {
        if (!worker.targets) continue;
        std::vector<bool> counted(mappings.size(), false);
        for (auto& target : *worker.targets) {
          const TargetMapping* mapping = mapping_for(mappings, manager, target.name);
          if (mapping == nullptr) continue;
          target.name = mapping->to;
          const auto index = static_cast<std::size_t>(mapping - mappings.data());
          if (!counted[index]) ++workers_renamed[index];
          counted[index] = true;
        }
      }
    }
  }
  for (std::size_t i = 0; i < mappings.size(); ++i) {
    const auto& mapping = mappings[i];
    if (workers_renamed[i] == 0) continue;  // shadowed by another mapping of the same name
    mapped.notes.push_back("the plan's target '" + mapping.from + "'" +
                           (mapping.manager.empty() ? "" : " on '" + mapping.manager + "'") + " runs as '" + mapping.to +
                           "' (--map-target, " + std::to_string(workers_renamed[i]) + " worker" +
                           (workers_renamed[i] == 1 ? "" : "s") + ")");
  }
  mapped.plan = std::move(plan);
  return mapped;
}

}  // namespace iomark::controller
