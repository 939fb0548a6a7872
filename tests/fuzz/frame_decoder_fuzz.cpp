// The frame decoder (protocol/frame.hpp) on arbitrary bytes. Fed the input whole and again
// in splits drawn from the input, it must say the same both ways (a transport gets bytes in
// any split), hold nothing once failed, and every envelope it yields must encode and decode
// back to itself.
#include <algorithm>
#include <variant>

#include "fuzz_support.hpp"
#include "iomark/protocol/codec.hpp"
#include "iomark/protocol/frame.hpp"

namespace {

using namespace iomark;
using namespace iomark::protocol;

// What a decoder said about a stream: its envelopes, then how it stopped.
struct Outcome {
  std::vector<Envelope> envelopes;
  std::optional<FrameError> error;
  bool mid_frame{false};
};

// Takes every step the decoder can make now.
void drain(FrameDecoder& decoder, Outcome& outcome) {
  for (;;) {
    auto step = decoder.next();
    if (auto* envelope = std::get_if<Envelope>(&step)) {
      outcome.envelopes.push_back(std::move(*envelope));
      continue;
    }
    if (auto* error = std::get_if<FrameError>(&step)) {
      fuzz::require(!outcome.error || outcome.error->kind == error->kind, "a failed decoder repeats its error");
      outcome.error = *error;
      fuzz::require(decoder.failed() && decoder.buffer_capacity() == 0, "a failed decoder holds no buffer");
    }
    outcome.mid_frame = decoder.mid_frame();
    return;
  }
}

std::uint64_t fnv1a(std::span<const std::byte> bytes) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (const auto b : bytes) hash = (hash ^ static_cast<std::uint64_t>(b)) * 1099511628211ULL;
  return hash;
}

bool same_error(const std::optional<FrameError>& a, const std::optional<FrameError>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  // A bad magic names the bytes seen so far, which depends on the split; the rest must match.
  return a->kind == b->kind && (a->kind == FrameErrorKind::bad_magic || a->error == b->error);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = fuzz::bytes_of(data, size);
  auto random = fnv1a(input);
  // A small limit lets ordinary frames hit frame_too_large too.
  const std::size_t limit = (random & 1) != 0 ? kMaxFrameBytes : 256;

  FrameDecoder whole_decoder(limit);
  Outcome whole;
  whole_decoder.feed(input);
  drain(whole_decoder, whole);

  FrameDecoder split_decoder(limit);
  Outcome split;
  for (std::size_t at = 0; at < input.size();) {
    random = random * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::size_t piece = std::min<std::size_t>(input.size() - at, 1 + (random >> 33) % 24);
    split_decoder.feed(input.subspan(at, piece));
    at += piece;
    drain(split_decoder, split);
  }
  if (input.empty()) drain(split_decoder, split);

  fuzz::require(whole.envelopes == split.envelopes, "the same envelopes whatever the split");
  fuzz::require(same_error(whole.error, split.error), "the same error whatever the split");
  fuzz::require(whole.mid_frame == split.mid_frame, "the same end state whatever the split");

  for (const auto& envelope : whole.envelopes) {
    auto again = decode(encode(envelope));
    fuzz::require(again.has_value(), "a decoded envelope encodes to bytes that decode");
    fuzz::require(*again == envelope, "a decoded envelope survives encode and decode");
  }
  return 0;
}
