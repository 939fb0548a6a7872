#include "iomark/transport/session_config.hpp"

#include <utility>

#include "iomark/protocol/codec.hpp"
#include "iomark/protocol/handshake.hpp"

namespace iomark::transport {

SessionConfig make_session_config(protocol::Role role, std::string build, std::string name, std::string address,
                                  std::optional<protocol::AuthKey> key) {
  const auto mode = key ? protocol::AuthMode::pre_shared_key : protocol::AuthMode::none;
  return SessionConfig{.hello = protocol::make_hello(role, std::move(build), std::move(name), std::move(address), mode),
                       .key = std::move(key)};
}

Result<void> validate(const SessionConfig& config) {
  // The peer runs decode() on our Hello; running it here turns a bad name into our own
  // clear error instead of the peer's "bad message".
  if (auto checked = protocol::decode(protocol::encode(protocol::Envelope{.message = config.hello})); !checked) {
    return fail(Error(ErrorCode::invalid_argument, "our hello is invalid: " + checked.error().message())
                    .in_field(checked.error().field()));
  }
  const bool wants_key = config.hello.auth_mode == protocol::AuthMode::pre_shared_key;
  if (wants_key && !config.key) {
    return fail(Error(ErrorCode::invalid_argument,
                      "authentication needs a pre-shared key (--key-file FILE or IOMARK_KEY), or --insecure on "
                      "both sides")
                    .in_field("key"));
  }
  if (!wants_key && config.key) {
    return fail(Error(ErrorCode::invalid_argument, "a key was given but the hello says --insecure").in_field("key"));
  }
  const auto positive = [](Nanoseconds value, const char* field) -> Result<void> {
    if (value <= Nanoseconds::zero()) return fail(Error(ErrorCode::invalid_argument, "must be positive").in_field(field));
    return {};
  };
  if (auto ok = positive(config.handshake_timeout, "handshake_timeout"); !ok) return ok;
  if (auto ok = positive(config.heartbeat_interval, "heartbeat_interval"); !ok) return ok;
  if (auto ok = positive(config.dead_peer_deadline, "dead_peer_deadline"); !ok) return ok;
  if (auto ok = positive(config.close_linger, "close_linger"); !ok) return ok;
  if (config.send_queue_limit_bytes == 0) {
    return fail(Error(ErrorCode::invalid_argument, "must be positive").in_field("send_queue_limit_bytes"));
  }
  if (config.receive_queue_limit_bytes == 0) {
    return fail(Error(ErrorCode::invalid_argument, "must be positive").in_field("receive_queue_limit_bytes"));
  }
  return {};
}

}  // namespace iomark::transport
