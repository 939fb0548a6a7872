#include "iomark/common/result.hpp"

namespace iomark {

std::string_view to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::invalid_argument: return "invalid argument";
    case ErrorCode::parse_error: return "parse error";
    case ErrorCode::validation_error: return "validation error";
    case ErrorCode::io_error: return "I/O error";
    case ErrorCode::not_found: return "not found";
    case ErrorCode::unsupported: return "unsupported";
    case ErrorCode::internal: return "internal error";
    case ErrorCode::timed_out: return "timed out";
    case ErrorCode::cancelled: return "cancelled";
  }
  return "unknown error";
}

std::string Error::describe() const {
  std::string text;
  if (!location_.file.empty()) {
    text += location_.file;
    if (location_.line != 0) text += ':' + std::to_string(location_.line);
    text += ": ";
  } else if (location_.line != 0) {
    text += "line " + std::to_string(location_.line) + ": ";
  }
  if (!field_.empty()) text += field_ + ": ";
  text += message_;
  return text;
}

}  // namespace iomark
