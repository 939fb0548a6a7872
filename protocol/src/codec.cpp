#include "iomark/protocol/codec.hpp"

#include <climits>
#include <memory>
#include <string>
#include <variant>

#include "wire.hpp"

namespace iomark::protocol {

namespace {

using namespace detail;

// Enough for a sample of a few dozen workers; a larger message takes more blocks from the heap.
constexpr std::size_t kDecodeArenaBlockBytes = std::size_t{256} << 10;

// One overload per alternative of Message: where it goes in the envelope's oneof.
void put(const Hello& m, pb::Envelope& w) { to_wire(m, *w.mutable_hello()); }
void put(const AuthChallenge& m, pb::Envelope& w) { to_wire(m, *w.mutable_auth_challenge()); }
void put(const AuthResponse& m, pb::Envelope& w) { to_wire(m, *w.mutable_auth_response()); }
void put(const AuthResult& m, pb::Envelope& w) { to_wire(m, *w.mutable_auth_result()); }
void put(const Heartbeat& m, pb::Envelope& w) { to_wire(m, *w.mutable_heartbeat()); }
void put(const Ack& /*m*/, pb::Envelope& w) { w.mutable_ack(); }
void put(const ErrorReport& m, pb::Envelope& w) { to_wire(m, *w.mutable_error()); }
void put(const Inventory& m, pb::Envelope& w) { to_wire(m, *w.mutable_inventory()); }
void put(const Assignment& m, pb::Envelope& w) { to_wire(m, *w.mutable_assignment()); }
void put(const PrepareTargets& m, pb::Envelope& w) { to_wire(m, *w.mutable_prepare_targets()); }
void put(const PrepareProgress& m, pb::Envelope& w) { to_wire(m, *w.mutable_prepare_progress()); }
void put(const PhaseCommand& m, pb::Envelope& w) { to_wire(m, *w.mutable_phase_command()); }
void put(const Sample& m, pb::Envelope& w) { to_wire(m, *w.mutable_sample()); }
void put(const FinalResults& m, pb::Envelope& w) { to_wire(m, *w.mutable_final_results()); }
void put(const InventoryRequest& /*m*/, pb::Envelope& w) { w.mutable_inventory_request(); }
void put(const NetworkPorts& m, pb::Envelope& w) { to_wire(m, *w.mutable_network_ports()); }

// The envelope's body as a domain message; nullopt (with the Checker told why) when absent.
std::optional<Message> take(const pb::Envelope& w, Checker& check) {
  using Body = pb::Envelope::BodyCase;
  switch (w.body_case()) {
    case Body::kHello: return from_wire(w.hello(), check, FieldPath("hello"));
    case Body::kAuthChallenge: return from_wire(w.auth_challenge(), check, FieldPath("auth_challenge"));
    case Body::kAuthResponse: return from_wire(w.auth_response(), check, FieldPath("auth_response"));
    case Body::kAuthResult: return from_wire(w.auth_result(), check, FieldPath("auth_result"));
    case Body::kHeartbeat: return from_wire(w.heartbeat(), check, FieldPath("heartbeat"));
    case Body::kAck: return Ack{};
    case Body::kError: return from_wire(w.error(), check, FieldPath("error"));
    case Body::kInventory: return from_wire(w.inventory(), check, FieldPath("inventory"));
    case Body::kAssignment: return from_wire(w.assignment(), check, FieldPath("assignment"));
    case Body::kPrepareTargets: return from_wire(w.prepare_targets(), check, FieldPath("prepare_targets"));
    case Body::kPrepareProgress: return from_wire(w.prepare_progress(), check, FieldPath("prepare_progress"));
    case Body::kPhaseCommand: return from_wire(w.phase_command(), check, FieldPath("phase_command"));
    case Body::kSample: return from_wire(w.sample(), check, FieldPath("sample"));
    case Body::kFinalResults: return from_wire(w.final_results(), check, FieldPath("final_results"));
    case Body::kInventoryRequest: return InventoryRequest{};
    case Body::kNetworkPorts: return from_wire(w.network_ports(), check, FieldPath("network_ports"));
    case Body::BODY_NOT_SET: break;
  }
  // A body field this version does not know lands in the unknown fields: a newer peer.
  if (!w.GetReflection()->GetUnknownFields(w).empty()) {
    check.fail(ErrorCode::unsupported, FieldPath("envelope"),
               "carries a message type this version of iomark does not know (is the peer newer?)");
  } else {
    check.fail(ErrorCode::validation_error, FieldPath("envelope"), "carries no message");
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::byte> encode(const Envelope& envelope) {
  pb::Envelope wire;
  wire.set_request_id(envelope.request_id);
  wire.set_correlation_id(envelope.correlation_id);
  std::visit([&wire](const auto& message) { put(message, wire); }, envelope.message);
  std::vector<std::byte> bytes(wire.ByteSizeLong());
  wire.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(bytes.data()));
  return bytes;
}

Result<Envelope> decode(std::span<const std::byte> bytes) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    return fail(Error(ErrorCode::invalid_argument, "is too large to decode").in_field("envelope"));
  }
  // The parsed protobuf lives only until it is turned into the domain message: an arena
  // whose first block is this thread's own makes its many small objects (a sample's per
  // target counters, latency totals and histograms) one bump each, freed all at once,
  // instead of a malloc and a free apiece, which were most of a controller's time taking in
  // a fleet's samples (docs/performance.md#controller-taking-in-samples).
  thread_local std::unique_ptr<char[]> first_block(new char[kDecodeArenaBlockBytes]);
  google::protobuf::ArenaOptions options;
  options.initial_block = first_block.get();
  options.initial_block_size = kDecodeArenaBlockBytes;
  google::protobuf::Arena arena(options);
  auto& wire = *google::protobuf::Arena::CreateMessage<pb::Envelope>(&arena);
  if (!wire.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return fail(Error(ErrorCode::parse_error, "is not a valid protobuf iomark.v1.Envelope").in_field("envelope"));
  }
  Checker check;
  auto message = take(wire, check);
  if (!check.ok()) return fail(std::move(check).take());
  return Envelope{wire.request_id(), wire.correlation_id(), std::move(*message)};
}

}  // namespace iomark::protocol
