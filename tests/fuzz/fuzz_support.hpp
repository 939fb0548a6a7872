// What the fuzz targets under tests/fuzz share: the entry point every target defines, how an
// input becomes a list of envelopes, the connection the session targets talk through, and a
// check that fails the input loudly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/protocol/connection.hpp"
#include "iomark/protocol/messages.hpp"

// libFuzzer's entry point; each fuzz target defines it once. Runs one input; returns 0.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace iomark::fuzz {

// Aborts with `what` on stderr when `condition` is false: a broken invariant is a finding,
// and the fuzzer (or the replay test) must stop on it, in release builds too.
void require(bool condition, std::string_view what);

[[nodiscard]] inline std::span<const std::byte> bytes_of(const std::uint8_t* data, std::size_t size) noexcept {
  return std::as_bytes(std::span(data, size));
}

// The envelopes of the frames at the start of `input`, up to the first frame that is
// incomplete or does not decode (the session targets read their inputs this way, so the
// mutator works on the same bytes a peer would send).
[[nodiscard]] std::vector<protocol::Envelope> envelopes_in(std::span<const std::byte> input);

// The frames of `envelopes`, one after another.
[[nodiscard]] std::vector<std::byte> frames_of(const std::vector<protocol::Envelope>& envelopes);

// A Connection that hands its owner a fixed list of envelopes, then reports the peer gone,
// and checks everything its owner sends the way the peer's decoder would: a frame that is
// too large or does not decode back to what was sent aborts (require()). Unlike the
// in-memory link it stays open while its list lasts, so an owner that sends replies, progress
// and samples keeps going; and it needs no second thread to play the peer. Single-threaded.
class ScriptedConnection final : public protocol::Connection {
 public:
  ScriptedConnection(protocol::PeerInfo peer, std::vector<protocol::Envelope> script);

  [[nodiscard]] const protocol::PeerInfo& peer() const noexcept override { return peer_; }
  [[nodiscard]] Result<void> send(protocol::Envelope envelope) override;
  // The next envelope of the list; then io_error ("the peer closed"), and closed.
  [[nodiscard]] Result<protocol::Envelope> receive(Nanoseconds timeout) override;
  // False: its owner polls it, on its one thread.
  [[nodiscard]] bool watch(std::shared_ptr<protocol::ArrivalSignal>, std::size_t) override { return false; }
  void close(std::string reason) override;
  [[nodiscard]] bool is_open() const noexcept override { return !closed_; }

  [[nodiscard]] std::size_t sent() const noexcept { return sent_; }

 private:
  protocol::PeerInfo peer_;
  std::vector<protocol::Envelope> script_;
  std::size_t next_{0};
  std::size_t sent_{0};
  bool closed_{false};
  std::string reason_;
};

// Inputs a target starts from, made from the protocol tests' sample messages: "frame_decoder",
// "agent_session" and "manager_link" have some; the text readers start from files.
struct Seed {
  std::string name;
  std::vector<std::byte> bytes;
};
[[nodiscard]] std::vector<Seed> generated_seeds(std::string_view target);
// The legacy_codec target's seeds (legacy_seeds.cpp).
[[nodiscard]] std::vector<Seed> legacy_codec_seeds();

}  // namespace iomark::fuzz
