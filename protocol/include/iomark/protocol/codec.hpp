// Envelope <-> bytes: the protobuf encoding of one message, without the frame header
// (frame.hpp adds and strips that).
//
// Pure functions; thread-safe; no I/O.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::protocol {

// The serialized iomark.v1.Envelope. Never fails and does not validate (messages.hpp says
// why); the size is unbounded here, encode_frame() checks it.
[[nodiscard]] std::vector<std::byte> encode(const Envelope& envelope);

// Parses one serialized Envelope and checks every field against messages.hpp: counts,
// indexes, string lengths and characters, enum values, histogram consistency. A hostile or
// broken peer gets a named error, never a crash or an unbounded allocation beyond `bytes`.
// Errors, with field() the path of the offending field, e.g.
// "sample.workers[2].targets[0].counters.latency.bucket_index[3]":
// - parse_error: not a protobuf Envelope (or a string that is not UTF-8);
// - unsupported: a message type this version does not know (a newer peer);
// - invalid_argument: a value out of its range (length, count, enum value, ...);
// - validation_error: values that contradict each other (no message in the envelope,
//   indexes not strictly increasing, an inconsistent histogram, bytes_done > bytes_total).
[[nodiscard]] Result<Envelope> decode(std::span<const std::byte> bytes);

}  // namespace iomark::protocol
