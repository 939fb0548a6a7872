#include "fuzz_support.hpp"

#include <cstdlib>
#include <iostream>
#include <utility>
#include <variant>

#include "iomark/protocol/codec.hpp"
#include "iomark/protocol/frame.hpp"

namespace iomark::fuzz {

void require(bool condition, std::string_view what) {
  if (condition) return;
  std::cerr << "fuzz: invariant broken: " << what << '\n';
  std::abort();
}

std::vector<protocol::Envelope> envelopes_in(std::span<const std::byte> input) {
  protocol::FrameDecoder decoder;
  decoder.feed(input);
  std::vector<protocol::Envelope> envelopes;
  for (;;) {
    auto step = decoder.next();
    auto* envelope = std::get_if<protocol::Envelope>(&step);
    if (envelope == nullptr) return envelopes;
    envelopes.push_back(std::move(*envelope));
  }
}

std::vector<std::byte> frames_of(const std::vector<protocol::Envelope>& envelopes) {
  std::vector<std::byte> bytes;
  for (const auto& envelope : envelopes) {
    auto frame = protocol::encode_frame(envelope);
    require(frame.has_value(), "a seed envelope makes a frame");
    bytes.insert(bytes.end(), frame->begin(), frame->end());
  }
  return bytes;
}

ScriptedConnection::ScriptedConnection(protocol::PeerInfo peer, std::vector<protocol::Envelope> script)
    : peer_(std::move(peer)), script_(std::move(script)) {}

Result<void> ScriptedConnection::send(protocol::Envelope envelope) {
  if (closed_) return fail(ErrorCode::io_error, peer_.describe() + ": " + reason_);
  // What a real peer would get: one frame, decoded and checked.
  auto frame = protocol::encode_frame(envelope);
  if (!frame) return fail(std::move(frame).error());
  protocol::FrameDecoder decoder;
  decoder.feed(*frame);
  auto step = decoder.next();
  if (const auto* error = std::get_if<protocol::FrameError>(&step)) {
    require(false, "the peer refuses what was sent (" + std::string(protocol::message_name(envelope.message)) +
                       "): " + error->error.describe());
  }
  const auto* decoded = std::get_if<protocol::Envelope>(&step);
  require(decoded != nullptr && *decoded == envelope,
          "what was sent decodes to something else: " + std::string(protocol::message_name(envelope.message)));
  ++sent_;
  return {};
}

Result<protocol::Envelope> ScriptedConnection::receive(Nanoseconds /*timeout*/) {
  if (!closed_ && next_ < script_.size()) return script_[next_++];
  close("the peer closed the connection");
  return fail(ErrorCode::io_error, peer_.describe() + ": " + reason_);
}

void ScriptedConnection::close(std::string reason) {
  if (closed_) return;
  closed_ = true;
  reason_ = std::move(reason);
}

}  // namespace iomark::fuzz
