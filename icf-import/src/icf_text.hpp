// Lexical layer of the .icf reader (docs/iometer-reference.md#icf-lexical): line splitting and the
// integer and token scanners IOmeter's ICF_ifstream uses. Internal to iomark::icf.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "iomark/common/ascii.hpp"

namespace iomark::icf::detail {

// IOmeter compares keys and names in the C locale (docs/iometer-reference.md#icf-lexical).
using ascii::iequals;
using ascii::istarts_with;
using ascii::to_lower;
using ascii::to_upper;
using ascii::trim;
// At most 40 characters of `text`, for messages about untrusted input.
[[nodiscard]] std::string excerpt(std::string_view text);

struct Line {
  std::string_view raw;   // without the line end
  std::string_view text;  // trimmed of spaces, tabs and CR
  std::uint64_t number{};  // 1-based

  // IOmeter decides by the first raw byte: only a line starting with ' is a key or caption.
  [[nodiscard]] bool is_key() const noexcept { return !raw.empty() && raw.front() == '\''; }
  [[nodiscard]] bool blank() const noexcept { return text.empty(); }
};

// Splits at LF, CRLF or a lone CR. Never copies the text.
[[nodiscard]] std::vector<Line> split_lines(std::string_view text);

// A number as the §1.1 scanner found it, before any range check.
struct ScannedInt {
  bool negative{false};
  std::uint64_t magnitude{};
};

// ExtractFirstInt / ExtractFirstUInt64: skip to the first of "-0123456789", take the
// maximal run of those characters ('-' only first), then skip whitespace, one optional
// comma and whitespace. `rest` is advanced past all of that. The error says why
// ("no integer", "'-' inside a number", "more than 64 bits").
[[nodiscard]] tl::expected<ScannedInt, std::string> scan_int(std::string_view& rest);

// ExtractFirstIntVersion: like scan_int but digits only (so "2003.12.16-post" works).
[[nodiscard]] tl::expected<std::uint64_t, std::string> scan_version_number(std::string_view& rest);

// ExtractFirstToken: the first maximal run of token characters (letters, digits and
// `~!@#$%^&*()-_=+[]{}\:;"'./<>?; plus space when `spaces`). Comma and '|' end a token.
// Empty when there is none. `rest` is advanced past the token and trimmed.
[[nodiscard]] std::string_view scan_token(std::string_view& rest, bool spaces = false);

}  // namespace iomark::icf::detail
