#include "iomark/protocol/messages.hpp"

#include <type_traits>

namespace iomark::protocol {

namespace {

template <typename T>
constexpr std::string_view name_of() noexcept {
  if constexpr (std::is_same_v<T, Hello>) return "hello";
  else if constexpr (std::is_same_v<T, AuthChallenge>) return "auth_challenge";
  else if constexpr (std::is_same_v<T, AuthResponse>) return "auth_response";
  else if constexpr (std::is_same_v<T, AuthResult>) return "auth_result";
  else if constexpr (std::is_same_v<T, Heartbeat>) return "heartbeat";
  else if constexpr (std::is_same_v<T, Ack>) return "ack";
  else if constexpr (std::is_same_v<T, ErrorReport>) return "error";
  else if constexpr (std::is_same_v<T, Inventory>) return "inventory";
  else if constexpr (std::is_same_v<T, Assignment>) return "assignment";
  else if constexpr (std::is_same_v<T, PrepareTargets>) return "prepare_targets";
  else if constexpr (std::is_same_v<T, PrepareProgress>) return "prepare_progress";
  else if constexpr (std::is_same_v<T, PhaseCommand>) return "phase_command";
  else if constexpr (std::is_same_v<T, Sample>) return "sample";
  else if constexpr (std::is_same_v<T, FinalResults>) return "final_results";
  else if constexpr (std::is_same_v<T, NetworkPorts>) return "network_ports";
  else {
    static_assert(std::is_same_v<T, InventoryRequest>, "every message needs a name");
    return "inventory_request";
  }
}

}  // namespace

std::string_view message_name(const Message& message) noexcept {
  return std::visit([](const auto& m) { return name_of<std::decay_t<decltype(m)>>(); }, message);
}

std::string_view to_string(Role role) noexcept {
  switch (role) {
    case Role::agent: return "agent";
    case Role::controller: return "controller";
  }
  return "";
}

std::string_view to_string(AuthMode mode) noexcept {
  switch (mode) {
    case AuthMode::pre_shared_key: return "pre-shared key";
    case AuthMode::none: return "none";
  }
  return "";
}

std::string_view to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::request_failed: return "request failed";
    case ErrorKind::version_mismatch: return "version mismatch";
    case ErrorKind::authentication_failed: return "authentication failed";
    case ErrorKind::protocol_violation: return "protocol violation";
    case ErrorKind::busy: return "busy";
  }
  return "";
}

std::string_view to_string(Phase phase) noexcept {
  switch (phase) {
    case Phase::start: return "start";
    case Phase::begin_io: return "begin I/O";
    case Phase::record_on: return "record on";
    case Phase::record_off: return "record off";
    case Phase::stop: return "stop";
    case Phase::abort: return "abort";
  }
  return "";
}

std::string_view to_string(MountState state) noexcept {
  switch (state) {
    case MountState::not_mounted: return "not mounted";
    case MountState::mounted: return "mounted";
    case MountState::partition_mounted: return "partition mounted";
    case MountState::swap: return "swap";
  }
  return "";
}

std::string_view to_string(SamplePhase phase) noexcept {
  switch (phase) {
    case SamplePhase::ramp_up: return "ramp-up";
    case SamplePhase::recording: return "recording";
  }
  return "";
}

}  // namespace iomark::protocol
