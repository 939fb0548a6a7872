// Hello, authentication, heartbeat and error messages.

#include <cstring>
#include <string>

#include "wire.hpp"

namespace iomark::protocol::detail {

namespace {

// Domain enums share the wire numbering (ErrorCode is shifted by one so that the wire's
// 0 stays "unspecified").
static_assert(pb::ROLE_CONTROLLER == static_cast<int>(Role::controller));
static_assert(pb::AUTH_MODE_NONE == static_cast<int>(AuthMode::none));
static_assert(pb::ERROR_KIND_BUSY == static_cast<int>(ErrorKind::busy));
constexpr int kErrorCodeOffset = 1;
static_assert(pb::ERROR_CODE_INTERNAL == static_cast<int>(ErrorCode::internal) + kErrorCodeOffset);

// timed_out and cancelled describe this side's own waiting, not the request that failed: they
// travel as io_error, so the wire (and every peer already deployed) stays as it is, and a peer
// can never make "nothing arrived yet" out of a refusal (from_wire accepts up to internal).
pb::ErrorCode wire_code(ErrorCode code) {
  if (code == ErrorCode::timed_out || code == ErrorCode::cancelled) return pb::ERROR_CODE_IO_ERROR;
  return static_cast<pb::ErrorCode>(static_cast<int>(code) + kErrorCodeOffset);
}

template <std::size_t N>
void copy_bytes(const std::array<std::byte, N>& from, std::string& to) {
  to.assign(reinterpret_cast<const char*>(from.data()), N);
}

// A fixed-size binary field: exactly N bytes.
template <std::size_t N>
std::array<std::byte, N> fixed_bytes(const std::string& from, Checker& check, const FieldPath& where) {
  std::array<std::byte, N> to{};
  if (from.size() != N) {
    check.fail(ErrorCode::invalid_argument, where,
               "is " + std::to_string(from.size()) + " bytes long, must be " + std::to_string(N));
    return to;
  }
  std::memcpy(to.data(), from.data(), N);
  return to;
}

}  // namespace

void to_wire(const Hello& message, pb::Hello& wire) {
  wire.set_min_version(message.min_version);
  wire.set_max_version(message.max_version);
  wire.set_build(message.build);
  wire.set_role(static_cast<pb::Role>(message.role));
  wire.set_name(message.name);
  wire.set_address(message.address);
  wire.set_auth_mode(static_cast<pb::AuthMode>(message.auth_mode));
}

Hello from_wire(const pb::Hello& wire, Checker& check, const FieldPath& path) {
  Hello message;
  message.min_version = wire.min_version();
  message.max_version = wire.max_version();
  message.build = wire.build();
  message.name = wire.name();
  message.address = wire.address();
  check.in_range(message.min_version, 1, UINT32_MAX, path / "min_version");
  check.in_range(message.max_version, message.min_version, UINT32_MAX, path / "max_version");
  check.label(message.build, 1, path / "build");
  check.enumeration(wire.role(), Role::agent, Role::controller, 0, message.role, path / "role");
  check.name(message.name, path / "name");
  check.label(message.address, 0, path / "address");
  check.enumeration(wire.auth_mode(), AuthMode::pre_shared_key, AuthMode::none, 0, message.auth_mode,
                    path / "auth_mode");
  return message;
}

void to_wire(const AuthChallenge& message, pb::AuthChallenge& wire) { copy_bytes(message.nonce, *wire.mutable_nonce()); }

AuthChallenge from_wire(const pb::AuthChallenge& wire, Checker& check, const FieldPath& path) {
  return AuthChallenge{fixed_bytes<kNonceBytes>(wire.nonce(), check, path / "nonce")};
}

void to_wire(const AuthResponse& message, pb::AuthResponse& wire) { copy_bytes(message.proof, *wire.mutable_proof()); }

AuthResponse from_wire(const pb::AuthResponse& wire, Checker& check, const FieldPath& path) {
  return AuthResponse{fixed_bytes<kProofBytes>(wire.proof(), check, path / "proof")};
}

void to_wire(const AuthResult& message, pb::AuthResult& wire) {
  wire.set_accepted(message.accepted);
  wire.set_reason(message.reason);
}

AuthResult from_wire(const pb::AuthResult& wire, Checker& check, const FieldPath& path) {
  check.text(wire.reason(), kMaxTextBytes, path / "reason");
  return AuthResult{wire.accepted(), wire.reason()};
}

void to_wire(const Heartbeat& message, pb::Heartbeat& wire) { wire.set_sequence(message.sequence); }

Heartbeat from_wire(const pb::Heartbeat& wire, Checker& /*check*/, const FieldPath& /*path*/) {
  return Heartbeat{wire.sequence()};
}

void to_wire(const ErrorReport& message, pb::Error& wire) {
  wire.set_kind(static_cast<pb::ErrorKind>(message.kind));
  wire.set_code(wire_code(message.error.code()));
  wire.set_message(message.error.message());
  wire.set_field(message.error.field());
  wire.set_file(message.error.location().file);
  wire.set_line(message.error.location().line);
}

ErrorReport from_wire(const pb::Error& wire, Checker& check, const FieldPath& path) {
  ErrorReport report;
  auto code = ErrorCode::internal;
  check.enumeration(wire.kind(), ErrorKind::request_failed, ErrorKind::busy, 0, report.kind, path / "kind");
  check.enumeration(wire.code(), ErrorCode::invalid_argument, ErrorCode::internal, kErrorCodeOffset, code,
                    path / "code");
  check.text(wire.message(), kMaxTextBytes, path / "message");
  check.text(wire.field(), kMaxPathBytes, path / "field");
  check.text(wire.file(), kMaxPathBytes, path / "file");
  report.error = Error(code, wire.message()).in_field(wire.field()).at({wire.file(), wire.line()});
  return report;
}

}  // namespace iomark::protocol::detail
