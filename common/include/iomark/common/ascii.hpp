// ASCII-only text helpers: case-insensitive comparison and trimming, independent of the C
// locale. IOmeter compares names and keywords with strcasecmp in the "C" locale
// (docs/iometer-reference.md#icf-lexical), and iomark's own keywords (units, flag values) are
// ASCII too, so a locale whose tolower() maps other bytes (Turkish dotless i, Latin-1 capitals)
// must not change what matches. Bytes outside A-Z are compared as they are: UTF-8 names match
// only byte for byte.
//
// Pure functions over std::string_view: no allocation (but to_lower), no state, any thread.
#pragma once

#include <string>
#include <string_view>

namespace iomark::ascii {

// 'A'..'Z' to 'a'..'z'; every other byte unchanged.
[[nodiscard]] constexpr char to_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// 'a'..'z' to 'A'..'Z'; every other byte unchanged.
[[nodiscard]] constexpr char to_upper(char c) noexcept {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// Equal but for the case of ASCII letters.
[[nodiscard]] constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  }
  return true;
}

// `text` begins with `prefix`, ASCII letters compared without case.
[[nodiscard]] constexpr bool istarts_with(std::string_view text, std::string_view prefix) noexcept {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

// The C locale's white space: space, tab, line feed, carriage return, vertical tab, form feed.
[[nodiscard]] constexpr bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// `text` without the white space (is_space) at either end; a view into `text`.
[[nodiscard]] constexpr std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// A copy of `text` with ASCII letters in lower case.
[[nodiscard]] inline std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = to_lower(c);
  return out;
}

// A copy of `text` with ASCII letters in upper case.
[[nodiscard]] inline std::string to_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = to_upper(c);
  return out;
}

}  // namespace iomark::ascii
