#include "iomark/common/write_scope.hpp"

#include <algorithm>

namespace iomark {

bool path_within(std::string_view allowed, std::string_view path) noexcept {
  if (allowed.empty() || !path.starts_with(allowed)) return false;
  return path.size() == allowed.size() || allowed.back() == '/' || path[allowed.size()] == '/';
}

bool path_within_any(const std::vector<std::string>& allowed, std::string_view path) noexcept {
  return std::any_of(allowed.begin(), allowed.end(), [&](const std::string& root) { return path_within(root, path); });
}

std::string write_scope_refusal(std::string_view agent, std::string_view path, const std::vector<std::string>& allowed) {
  std::string text = "agent " + std::string(agent) + " refuses " + std::string(path) + ": ";
  if (allowed.empty()) {
    return text + "it was started without --allow, so it creates, writes and deletes nothing; start it with "
                  "--allow DIR (a directory holding the target) to use it";
  }
  text += "it creates, writes and deletes only at or under its --allow paths (";
  for (std::size_t i = 0; i < allowed.size(); ++i) text += (i == 0 ? "" : ", ") + allowed[i];
  return text + "); add a directory holding it to that agent's --allow to use it";
}

}  // namespace iomark
