#include "posix.hpp"

#include <cerrno>
#include <cstring>

namespace iomark::targets::detail {

std::string errno_text(int error) {
  char buffer[256];
  // GNU strerror_r returns the message, which may or may not live in `buffer`.
  return ::strerror_r(error, buffer, sizeof buffer);
}

Error os_error(ErrorCode code, const std::string& what, int error) {
  return Error(error == ENOENT ? ErrorCode::not_found : code, what + ": " + errno_text(error));
}

std::string with_article(const std::string& word) {
  const bool vowel = !word.empty() && std::strchr("aeiouAEIOU", word.front()) != nullptr;
  return (vowel ? "an " : "a ") + word;
}

std::string describe_bytes(std::uint64_t bytes) {
  return format_size(Bytes(bytes)) + " (" + std::to_string(bytes) + " bytes)";
}

}  // namespace iomark::targets::detail
