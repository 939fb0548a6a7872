// Errors as values at library boundaries.
//
// Every fallible public function returns Result<T>; exceptions are reserved for bugs.
// An Error carries a machine-readable code, a human message and, where it applies, the
// place it came from (file and 1-based line) and the field it concerns, so that a front
// end can print `FILE:LINE: message` without knowing which library produced it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace iomark {

enum class ErrorCode : std::uint8_t {
  invalid_argument,  // a value outside its documented range
  parse_error,       // text that does not follow its grammar
  validation_error,  // well-formed input that breaks a rule (e.g. % of size != 100)
  io_error,          // the operating system refused a read or write
  not_found,         // a named thing (file, spec, manager, target) does not exist
  unsupported,       // valid, but not something this build can do
  internal,          // a bug: an invariant did not hold
  // This side's own waiting, not a failure of what it waited for; never sent on the wire
  // (protocol/src/wire_session.cpp sends them as io_error, and refuses them from a peer).
  timed_out,  // nothing arrived (a message, a connection) before the deadline; the link is fine
  cancelled,  // a stop was requested (the user, a signal) and the wait ended on it
};

[[nodiscard]] std::string_view to_string(ErrorCode code) noexcept;

struct SourceLocation {
  std::string file;      // as the user named it; empty when the text had no file
  std::uint64_t line{};  // 1-based; 0 when not tied to a line
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

class Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  [[nodiscard]] ErrorCode code() const noexcept { return code_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }
  [[nodiscard]] const SourceLocation& location() const noexcept { return location_; }
  [[nodiscard]] const std::string& field() const noexcept { return field_; }

  Error& at(SourceLocation location) & {
    location_ = std::move(location);
    return *this;
  }
  Error&& at(SourceLocation location) && { return std::move(at(std::move(location))); }
  Error& in_field(std::string field) & {
    field_ = std::move(field);
    return *this;
  }
  Error&& in_field(std::string field) && { return std::move(in_field(std::move(field))); }

  // "file:line: field: message", leaving out the parts that are unknown.
  [[nodiscard]] std::string describe() const;

  friend bool operator==(const Error&, const Error&) = default;

 private:
  ErrorCode code_;
  std::string message_;
  SourceLocation location_;
  std::string field_;
};

template <typename T>
using Result = tl::expected<T, Error>;

[[nodiscard]] inline tl::unexpected<Error> fail(ErrorCode code, std::string message) {
  return tl::unexpected<Error>(Error(code, std::move(message)));
}
[[nodiscard]] inline tl::unexpected<Error> fail(Error error) {
  return tl::unexpected<Error>(std::move(error));
}

}  // namespace iomark
