// Domain <-> protobuf converters, one pair per message (private to the protocol library;
// the only place besides codec.cpp that sees generated types).
//
// to_wire() copies every field as is, without checks. from_wire() copies and checks each
// field against messages.hpp, recording the first failure in the Checker; after a failure
// the returned value is incomplete and must be dropped.
#pragma once

#include "checks.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/v1/envelope.pb.h"

namespace iomark::protocol::detail {

namespace pb = ::iomark::v1;

void to_wire(const Hello& message, pb::Hello& wire);
void to_wire(const AuthChallenge& message, pb::AuthChallenge& wire);
void to_wire(const AuthResponse& message, pb::AuthResponse& wire);
void to_wire(const AuthResult& message, pb::AuthResult& wire);
void to_wire(const Heartbeat& message, pb::Heartbeat& wire);
void to_wire(const ErrorReport& message, pb::Error& wire);
void to_wire(const Inventory& message, pb::Inventory& wire);
void to_wire(const Assignment& message, pb::Assignment& wire);
void to_wire(const PrepareTargets& message, pb::PrepareTargets& wire);
void to_wire(const PrepareProgress& message, pb::PrepareProgress& wire);
void to_wire(const PhaseCommand& message, pb::PhaseCommand& wire);
void to_wire(const Sample& message, pb::Sample& wire);
void to_wire(const FinalResults& message, pb::FinalResults& wire);
void to_wire(const NetworkPorts& message, pb::NetworkPorts& wire);

[[nodiscard]] Hello from_wire(const pb::Hello& wire, Checker& check, const FieldPath& path);
[[nodiscard]] AuthChallenge from_wire(const pb::AuthChallenge& wire, Checker& check, const FieldPath& path);
[[nodiscard]] AuthResponse from_wire(const pb::AuthResponse& wire, Checker& check, const FieldPath& path);
[[nodiscard]] AuthResult from_wire(const pb::AuthResult& wire, Checker& check, const FieldPath& path);
[[nodiscard]] Heartbeat from_wire(const pb::Heartbeat& wire, Checker& check, const FieldPath& path);
[[nodiscard]] ErrorReport from_wire(const pb::Error& wire, Checker& check, const FieldPath& path);
[[nodiscard]] Inventory from_wire(const pb::Inventory& wire, Checker& check, const FieldPath& path);
[[nodiscard]] Assignment from_wire(const pb::Assignment& wire, Checker& check, const FieldPath& path);
[[nodiscard]] PrepareTargets from_wire(const pb::PrepareTargets& wire, Checker& check, const FieldPath& path);
[[nodiscard]] PrepareProgress from_wire(const pb::PrepareProgress& wire, Checker& check, const FieldPath& path);
[[nodiscard]] PhaseCommand from_wire(const pb::PhaseCommand& wire, Checker& check, const FieldPath& path);
[[nodiscard]] Sample from_wire(const pb::Sample& wire, Checker& check, const FieldPath& path);
[[nodiscard]] FinalResults from_wire(const pb::FinalResults& wire, Checker& check, const FieldPath& path);
[[nodiscard]] NetworkPorts from_wire(const pb::NetworkPorts& wire, Checker& check, const FieldPath& path);

}  // namespace iomark::protocol::detail
