// UTF-8 validation as RFC 3629 defines it: no overlong forms, no surrogates, nothing above
// U+10FFFF. Names and labels cross the wire as UTF-8; the protocol checks what arrives and
// the agent repairs what it sends with the same rule.
#pragma once

#include <cstddef>
#include <string_view>

namespace iomark {

// The length (1..4) of the valid UTF-8 sequence starting at text[index], or 0 if there is
// none there. Precondition: index < text.size().
[[nodiscard]] std::size_t utf8_sequence_length(std::string_view text, std::size_t index) noexcept;

[[nodiscard]] bool is_utf8(std::string_view text) noexcept;

}  // namespace iomark
