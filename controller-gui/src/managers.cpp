#include "iomark/gui/managers.hpp"

#include <algorithm>

#include "iomark/common/ascii.hpp"
#include "iomark/gui/plan_document.hpp"

namespace iomark::gui {

std::vector<std::optional<std::size_t>> pair_managers(const std::vector<access_specs::Manager>& planned,
                                                      const std::vector<LiveManager>& live) {
  std::vector<std::optional<std::size_t>> paired(planned.size());
  std::vector<bool> used(live.size(), false);
  for (std::size_t l = 0; l < live.size(); ++l) used[l] = !live[l].open;
  for (std::size_t p = 0; p < planned.size(); ++p) {
    for (std::size_t l = 0; l < live.size(); ++l) {
      if (!used[l] && live[l].open && ascii::iequals(planned[p].name, live[l].name)) {
        paired[p] = l;
        used[l] = true;
        break;
      }
    }
  }
  for (auto& choice : paired) {
    if (choice) continue;
    const auto free = std::find(used.begin(), used.end(), false);
    if (free == used.end()) break;
    choice = static_cast<std::size_t>(free - used.begin());
    *free = true;
  }
  return paired;
}

std::vector<std::pair<std::string, std::string>> manager_map(const std::vector<access_specs::Manager>& planned,
                                                             const std::vector<LiveManager>& live) {
  std::vector<std::pair<std::string, std::string>> map;
  const auto paired = pair_managers(planned, live);
  for (std::size_t p = 0; p < planned.size(); ++p) {
    if (paired[p]) map.emplace_back(planned[p].name, live[*paired[p]].name);
  }
  return map;
}

}  // namespace iomark::gui
