#include "iomark/protocol/handshake.hpp"

#include <algorithm>
#include <utility>

namespace iomark::protocol {

namespace {

std::string versions(const Hello& hello) {
  if (hello.min_version == hello.max_version) return "version " + std::to_string(hello.min_version);
  return "versions " + std::to_string(hello.min_version) + " to " + std::to_string(hello.max_version);
}

std::string this_side(const Hello& hello) {
  return "this " + std::string(to_string(hello.role)) + " (" + hello.build + ")";
}

std::string peer_side(const Hello& hello) {
  return std::string(to_string(hello.role)) + " '" + hello.name + "' (" + hello.build + ")";
}

tl::unexpected<ErrorReport> refuse(ErrorKind kind, ErrorCode code, std::string message) {
  return tl::unexpected<ErrorReport>(ErrorReport{kind, Error(code, std::move(message)).in_field("hello")});
}

}  // namespace

Hello make_hello(Role role, std::string build, std::string name, std::string address, AuthMode auth_mode) {
  return Hello{kMinProtocolVersion, kMaxProtocolVersion, std::move(build), role, std::move(name),
               std::move(address),  auth_mode};
}

tl::expected<Agreement, ErrorReport> agree(const Hello& ours, const Hello& theirs) {
  if (ours.role == theirs.role) {
    return refuse(ErrorKind::protocol_violation, ErrorCode::validation_error,
                  "both sides are " + std::string(to_string(ours.role)) + "s: " + peer_side(theirs) +
                      " talked to " + this_side(ours));
  }
  const auto lowest = std::max(ours.min_version, theirs.min_version);
  const auto highest = std::min(ours.max_version, theirs.max_version);
  if (lowest > highest) {
    return refuse(ErrorKind::version_mismatch, ErrorCode::unsupported,
                  "protocol version mismatch: " + this_side(ours) + " speaks " + versions(ours) + ", " +
                      peer_side(theirs) + " speaks " + versions(theirs) + "; install matching iomark versions");
  }
  if (ours.auth_mode != theirs.auth_mode) {
    const bool we_want_key = ours.auth_mode == AuthMode::pre_shared_key;
    const auto keyed = we_want_key ? this_side(ours) : peer_side(theirs);
    const auto insecure = we_want_key ? peer_side(theirs) : this_side(ours);
    return refuse(ErrorKind::authentication_failed, ErrorCode::validation_error,
                  "authentication mode mismatch: " + keyed + " requires a pre-shared key, " + insecure +
                      " runs with --insecure; give both sides the same key (--key-file or IOMARK_KEY), or "
                      "--insecure to both");
  }
  return Agreement{highest, ours.auth_mode};
}

}  // namespace iomark::protocol
