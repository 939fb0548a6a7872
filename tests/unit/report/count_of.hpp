// What the report tests share.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace iomark::report::test_support {

// How often `what` occurs in `text`, without overlaps.
inline std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace iomark::report::test_support
