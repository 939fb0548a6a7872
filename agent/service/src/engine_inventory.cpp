#include "iomark/agent/engine_inventory.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "iomark/agent/inventory.hpp"
#include "iomark/engine/engine_kind.hpp"

namespace iomark::agent {
namespace {

template <typename Item>
void keep_first(std::vector<Item>& items, std::size_t count) {
  if (items.size() > count) items.resize(count);
}

}  // namespace

std::vector<protocol::TargetEngines> target_engines(std::span<const engine::MeasuredChoice> measured) {
  std::vector<protocol::TargetEngines> targets;
  std::vector<std::vector<engine::EngineKind>> usable;  // per entry of `targets`, unordered
  for (const auto& choice : measured) {
    auto target = std::find_if(targets.begin(), targets.end(),
                               [&](const protocol::TargetEngines& known) { return known.path == choice.target_path; });
    if (target == targets.end()) {
      targets.push_back({choice.target_path, {}, {}});
      usable.emplace_back();
      target = targets.end() - 1;
    }
    auto& kinds = usable[static_cast<std::size_t>(target - targets.begin())];
    kinds.insert(kinds.end(), choice.decision.usable.begin(), choice.decision.usable.end());
    target->choices.push_back({choice.key.queue_depth, choice.key.block_bytes,
                               std::string(engine::to_string(choice.decision.engine)), choice.decision.reason});
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    for (const engine::EngineKind kind : engine::kProbeOrder) {
      if (std::find(usable[i].begin(), usable[i].end(), kind) != usable[i].end()) {
        targets[i].usable_engines.emplace_back(engine::to_string(kind));
      }
    }
    std::stable_sort(targets[i].choices.begin(), targets[i].choices.end(),
                     [](const protocol::EngineChoice& a, const protocol::EngineChoice& b) {
                       return std::tie(a.queue_depth, a.block_bytes) < std::tie(b.queue_depth, b.block_bytes);
                     });
  }
  return targets;
}

void fit_target_engines(std::vector<protocol::TargetEngines>& targets) {
  for (auto& target : targets) {
    std::erase_if(target.usable_engines, [](const std::string& name) { return !is_valid_engine_name(name); });
    keep_first(target.usable_engines, protocol::kMaxEngines);
    std::erase_if(target.choices, [](const protocol::EngineChoice& choice) {
      return !is_valid_engine_name(choice.engine) || choice.queue_depth == 0 ||
             choice.queue_depth > kMaxOutstandingIosPerWorker || choice.block_bytes == 0 ||
             choice.block_bytes > protocol::kMaxSectorBytes;
    });
    for (auto& choice : target.choices) choice.reason = sanitize_label(choice.reason, protocol::kMaxEngineReasonBytes);
    keep_first(target.choices, protocol::kMaxEngineChoices);
  }
  std::erase_if(targets, [](const protocol::TargetEngines& target) {
    return !is_valid_path(target.path) || target.choices.empty();
  });
  keep_first(targets, protocol::kMaxTargetEngines);
}

}  // namespace iomark::agent
