// Private helpers for the ASCII-only, locale-independent comparisons IOmeter makes
// (strcasecmp on names and literals).
#pragma once

#include <algorithm>
#include <string_view>

namespace iomark::access_specs::detail {

[[nodiscard]] constexpr char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

[[nodiscard]] constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

}  // namespace iomark::access_specs::detail
