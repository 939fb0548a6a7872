#include "iomark/common/utf8.hpp"

namespace iomark {

std::size_t utf8_sequence_length(std::string_view text, std::size_t index) noexcept {
  const auto lead = static_cast<unsigned char>(text[index]);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;  // allowed range of the second byte
  unsigned char high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (text.size() - index < length) return 0;
  const auto second = static_cast<unsigned char>(text[index + 1]);
  if (second < low || second > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[index + k]);
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

bool is_utf8(std::string_view text) noexcept {
  for (std::size_t index = 0; index < text.size();) {
    const auto length = utf8_sequence_length(text, index);
    if (length == 0) return false;
    index += length;
  }
  return true;
}

}  // namespace iomark
