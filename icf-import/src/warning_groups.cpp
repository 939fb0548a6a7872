#include "iomark/icf/warning_groups.hpp"

#include <string_view>

namespace iomark::icf {

namespace {

// The message with each '...' quoted part emptied to '': what makes warnings one kind.
std::string kind_of(std::string_view message) {
  std::string kind;
  bool quoted = false;
  for (const char c : message) {
    if (c == '\'') {
      quoted = !quoted;
      kind += c;
    } else if (!quoted) {
      kind += c;
    }
  }
  return kind;
}

}  // namespace

std::vector<WarningGroup> group_warnings(const std::vector<Warning>& warnings) {
  std::vector<WarningGroup> groups;
  std::vector<std::string> kinds;  // parallel to groups
  for (const Warning& warning : warnings) {
    std::string kind = kind_of(warning.message);
    std::size_t g = 0;
    while (g < kinds.size() && kinds[g] != kind) ++g;
    if (g == kinds.size()) {
      groups.push_back({warning, 1, warning.line});
      kinds.push_back(std::move(kind));
    } else {
      ++groups[g].count;
      groups[g].last_line = warning.line;
    }
  }
  return groups;
}

std::string describe(const WarningGroup& group) {
  std::string line = group.first.message;
  if (group.count > 1) {
    line += " (" + std::to_string(group.count) + " alike, lines " + std::to_string(group.first.line) + " to " +
            std::to_string(group.last_line) + ")";
  }
  return line;
}

}  // namespace iomark::icf
