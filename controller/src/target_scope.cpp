#include "iomark/controller/target_scope.hpp"

#include <algorithm>

#include "iomark/common/write_scope.hpp"

namespace iomark::controller {
namespace {

bool plain_absolute(std::string_view path) {
  if (!path.starts_with('/')) return false;
  while (!path.empty()) {
    const auto slash = path.find('/');
    const auto part = path.substr(0, slash);
    if (part == "." || part == "..") return false;
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return true;
}

}  // namespace

std::optional<std::string> target_refusal(std::string_view agent, const protocol::Inventory& inventory,
                                          std::string_view path) {
  const auto refuse = [&] { return write_scope_refusal(agent, path, inventory.allowed_paths); };
  // Agents from before the write scope send no flag; those started with --allow entries were
  // already held to them for named paths, so a list is a scope either way.
  const bool reports_scope = inventory.write_scope || !inventory.allowed_paths.empty();
  if (reports_scope && plain_absolute(path) && !path_within_any(inventory.allowed_paths, path)) return refuse();
  return std::nullopt;
}

Result<void> check_target_scope(std::string_view agent, const protocol::Inventory& inventory, std::string_view path) {
  if (auto refusal = target_refusal(agent, inventory, path)) {
    return fail(Error(ErrorCode::validation_error, std::move(*refusal)).in_field("--allow"));
  }
  return {};
}

}  // namespace iomark::controller
