// Manager names compare as IOmeter compares them: ASCII case-insensitively.
#pragma once

#include <algorithm>
#include <cctype>
#include <string_view>

namespace iomark::controller::detail {

[[nodiscard]] inline bool same_name(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace iomark::controller::detail
