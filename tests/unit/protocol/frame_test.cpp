#include "iomark/protocol/frame.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "iomark/protocol/codec.hpp"
#include "sample_messages.hpp"
#include "wire_writer.hpp"

namespace iomark::protocol {
namespace {

using Bytes = std::vector<std::byte>;

Bytes frame_of(const Envelope& envelope) {
  auto frame = encode_frame(envelope);
  EXPECT_TRUE(frame.has_value()) << frame.error().describe();
  return frame.value_or(Bytes{});
}

Bytes text_bytes(std::string_view text) {
  Bytes out;
  for (const char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

// "IOMK" + the given length, little-endian.
Bytes header(std::uint32_t length) {
  Bytes out = text_bytes("IOMK");
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(length >> (8 * i)));
  return out;
}

// A long stream: every message type several times, with varying ids.
std::vector<Envelope> many_envelopes() {
  std::vector<Envelope> envelopes;
  const auto every = test::every_message();
  for (std::uint64_t round = 0; round < 12; ++round) {
    for (auto envelope : every) {
      envelope.request_id += round * 1000;
      envelopes.push_back(std::move(envelope));
    }
  }
  return envelopes;
}

Bytes stream_of(const std::vector<Envelope>& envelopes) {
  Bytes stream;
  for (const auto& envelope : envelopes) {
    const auto frame = frame_of(envelope);
    stream.insert(stream.end(), frame.begin(), frame.end());
  }
  return stream;
}

// Drains the decoder; fails the test on an error.
void drain(FrameDecoder& decoder, std::vector<Envelope>& out) {
  for (;;) {
    auto step = decoder.next();
    if (std::holds_alternative<NeedMore>(step)) return;
    if (auto* error = std::get_if<FrameError>(&step)) {
      ADD_FAILURE() << to_string(error->kind) << ": " << error->error.describe();
      return;
    }
    out.push_back(std::move(std::get<Envelope>(step)));
  }
}

// Feeds `stream` in chunks whose sizes come from `next_chunk`.
template <typename ChunkSize>
std::vector<Envelope> decode_in_chunks(const Bytes& stream, ChunkSize next_chunk) {
  FrameDecoder decoder;
  std::vector<Envelope> decoded;
  std::size_t offset = 0;
  while (offset < stream.size()) {
    const auto size = std::min<std::size_t>(next_chunk(), stream.size() - offset);
    decoder.feed(std::span(stream).subspan(offset, size));
    offset += size;
    drain(decoder, decoded);
  }
  EXPECT_FALSE(decoder.mid_frame());
  return decoded;
}

FrameError expect_error(FrameDecoder& decoder) {
  auto step = decoder.next();
  if (auto* error = std::get_if<FrameError>(&step)) return *error;
  ADD_FAILURE() << "expected a frame error, got " << (std::holds_alternative<NeedMore>(step) ? "need-more" : "a frame");
  return {};
}

TEST(Frame, LayoutIsMagicLengthPayload) {
  const Envelope envelope{3, 4, Heartbeat{99}};
  const auto frame = frame_of(envelope);
  ASSERT_GE(frame.size(), kFrameHeaderBytes);
  EXPECT_EQ(Bytes(frame.begin(), frame.begin() + 4), text_bytes("IOMK"));
  const auto payload = encode(envelope);
  EXPECT_EQ(Bytes(frame.begin(), frame.begin() + 8), header(static_cast<std::uint32_t>(payload.size())));
  EXPECT_EQ(Bytes(frame.begin() + 8, frame.end()), payload);
}

TEST(Frame, HandMadeFrameDecodes) {
  // Envelope{request_id 0, correlation_id 7, heartbeat{sequence 300}} built from the spec.
  const auto payload = test::WireWriter()
                           .varint(test::envelope_field::correlation_id, 7)
                           .message(test::envelope_field::heartbeat, test::WireWriter().varint(1, 300))
                           .data();
  auto frame = header(static_cast<std::uint32_t>(payload.size()));
  frame.insert(frame.end(), payload.begin(), payload.end());
  FrameDecoder decoder;
  decoder.feed(frame);
  auto step = decoder.next();
  ASSERT_TRUE(std::holds_alternative<Envelope>(step));
  EXPECT_EQ(std::get<Envelope>(step), (Envelope{0, 7, Heartbeat{300}}));
  EXPECT_TRUE(std::holds_alternative<NeedMore>(decoder.next()));
}

TEST(Frame, EmptyDecoderNeedsMore) {
  FrameDecoder decoder;
  EXPECT_TRUE(std::holds_alternative<NeedMore>(decoder.next()));
  EXPECT_FALSE(decoder.mid_frame());
  EXPECT_FALSE(decoder.failed());
}

TEST(Frame, WholeStreamAtOnce) {
  const auto envelopes = many_envelopes();
  const auto stream = stream_of(envelopes);
  EXPECT_EQ(decode_in_chunks(stream, [&] { return stream.size(); }), envelopes);
}

TEST(Frame, ByteByByte) {
  const auto envelopes = many_envelopes();
  EXPECT_EQ(decode_in_chunks(stream_of(envelopes), [] { return std::size_t{1}; }), envelopes);
}

TEST(Frame, RandomSplits) {
  const auto envelopes = many_envelopes();
  const auto stream = stream_of(envelopes);
  for (const std::uint32_t seed : {1U, 2U, 3U, 42U, 20240601U}) {
    SCOPED_TRACE(seed);
    std::mt19937 random(seed);
    // Mostly small pieces (splitting headers), sometimes large ones (several frames).
    std::uniform_int_distribution<std::size_t> small(1, 16);
    std::uniform_int_distribution<std::size_t> large(1, 200'000);
    std::bernoulli_distribution pick_large(0.2);
    const auto decoded = decode_in_chunks(stream, [&] { return pick_large(random) ? large(random) : small(random); });
    EXPECT_EQ(decoded, envelopes);
  }
}

TEST(Frame, TruncatedFrameWaitsAndShowsMidFrame) {
  const auto frame = frame_of(Envelope{1, 0, test::sample_hello()});
  FrameDecoder decoder;
  decoder.feed(std::span(frame).first(frame.size() - 1));
  EXPECT_TRUE(std::holds_alternative<NeedMore>(decoder.next()));
  EXPECT_TRUE(decoder.mid_frame());  // what a transport reports when the peer closes now
  decoder.feed(std::span(frame).last(1));
  EXPECT_TRUE(std::holds_alternative<Envelope>(decoder.next()));
  EXPECT_FALSE(decoder.mid_frame());

  FrameDecoder header_only;
  header_only.feed(std::span(frame).first(5));
  EXPECT_TRUE(std::holds_alternative<NeedMore>(header_only.next()));
  EXPECT_TRUE(header_only.mid_frame());
}

TEST(Frame, BadMagicFailsAtTheFirstWrongByte) {
  FrameDecoder decoder;
  decoder.feed(text_bytes("G"));  // an HTTP client: "GET / ..."
  const auto error = expect_error(decoder);
  EXPECT_EQ(error.kind, FrameErrorKind::bad_magic);
  EXPECT_NE(error.error.message().find("IOMK"), std::string::npos) << error.error.message();
}

TEST(Frame, ErrorIsFinal) {
  const auto good = frame_of(Envelope{1, 0, Heartbeat{1}});
  FrameDecoder decoder;
  decoder.feed(good);
  decoder.feed(text_bytes("IOMX"));
  decoder.feed(good);
  EXPECT_TRUE(std::holds_alternative<Envelope>(decoder.next()));
  const auto first = expect_error(decoder);
  EXPECT_EQ(first.kind, FrameErrorKind::bad_magic);
  EXPECT_TRUE(decoder.failed());
  decoder.feed(good);  // ignored: the stream cannot be trusted any more
  EXPECT_EQ(expect_error(decoder), first);
  EXPECT_FALSE(decoder.mid_frame());
}

TEST(Frame, OversizeLengthIsRefusedWithoutAllocating) {
  FrameDecoder decoder;
  decoder.feed(header(0xffff'ffff));
  decoder.feed(Bytes(100, std::byte{0}));
  const auto error = expect_error(decoder);
  EXPECT_EQ(error.kind, FrameErrorKind::frame_too_large);
  EXPECT_NE(error.error.message().find("4294967295"), std::string::npos) << error.error.message();
  EXPECT_LT(decoder.buffer_capacity(), 1024U);
  decoder.feed(Bytes(4096, std::byte{0}));
  EXPECT_LT(decoder.buffer_capacity(), 1024U);

  // A transport reads in large chunks: what came with the bad header is let go too.
  FrameDecoder chunked;
  auto chunk = header(0xffff'ffff);
  chunk.resize(64 * 1024);
  chunked.feed(chunk);
  EXPECT_EQ(expect_error(chunked).kind, FrameErrorKind::frame_too_large);
  EXPECT_LT(chunked.buffer_capacity(), 1024U);

  FrameDecoder just_above;
  just_above.feed(header(kMaxFrameBytes + 1));
  EXPECT_EQ(expect_error(just_above).kind, FrameErrorKind::frame_too_large);
  EXPECT_LT(just_above.buffer_capacity(), 1024U);
}

TEST(Frame, LimitIsInclusiveAndAdjustable) {
  const Envelope envelope{1, 0, AuthResult{false, std::string(1000, 'r')}};
  const auto frame = frame_of(envelope);
  const auto payload_size = frame.size() - kFrameHeaderBytes;

  FrameDecoder exact(payload_size);
  exact.feed(frame);
  EXPECT_TRUE(std::holds_alternative<Envelope>(exact.next()));

  FrameDecoder below(payload_size - 1);
  below.feed(frame);
  EXPECT_EQ(expect_error(below).kind, FrameErrorKind::frame_too_large);

  FrameDecoder raised(16);
  raised.set_max_frame_bytes(kMaxFrameBytes);  // e.g. once the peer authenticated
  raised.feed(frame);
  EXPECT_TRUE(std::holds_alternative<Envelope>(raised.next()));

  EXPECT_FALSE(encode_frame(envelope, payload_size - 1).has_value());
  EXPECT_EQ(encode_frame(envelope, payload_size - 1).error().field(), "frame");
  EXPECT_TRUE(encode_frame(envelope, payload_size).has_value());
}

TEST(Frame, HandshakeLimitFitsEveryHandshakeMessage) {
  const std::vector<Message> handshake{test::sample_hello(), AuthChallenge{}, AuthResponse{},
                                       AuthResult{false, std::string(kMaxTextBytes, 'r')},
                                       ErrorReport{ErrorKind::version_mismatch,
                                                   Error(ErrorCode::unsupported, std::string(kMaxTextBytes, 'm'))
                                                       .in_field(std::string(kMaxPathBytes, 'f'))
                                                       .at({std::string(kMaxPathBytes, 'p'), 1})}};
  for (const auto& message : handshake) {
    EXPECT_TRUE(encode_frame(Envelope{UINT64_MAX, UINT64_MAX, message}, kMaxHandshakeFrameBytes).has_value())
        << message_name(message);
  }
}

TEST(Frame, GarbagePayloadIsABadMessage) {
  auto frame = header(3);
  frame.insert(frame.end(), {std::byte{0x0a}, std::byte{0x05}, std::byte{0x01}});  // length 5, 1 byte given
  FrameDecoder decoder;
  decoder.feed(frame);
  const auto error = expect_error(decoder);
  EXPECT_EQ(error.kind, FrameErrorKind::bad_message);
  EXPECT_EQ(error.error.code(), ErrorCode::parse_error);
}

TEST(Frame, InvalidFieldIsABadMessageNamingTheField) {
  auto hello = test::sample_hello();
  hello.min_version = 0;
  FrameDecoder decoder;
  decoder.feed(frame_of(Envelope{1, 0, hello}));
  const auto error = expect_error(decoder);
  EXPECT_EQ(error.kind, FrameErrorKind::bad_message);
  EXPECT_EQ(error.error.field(), "hello.min_version");
}

TEST(Frame, BigFrameMemoryIsReleased) {
  auto inventory = test::sample_inventory();
  inventory.block_devices.front().model.assign(kMaxLabelBytes, 'm');
  inventory.block_devices.resize(kMaxBlockDevices, inventory.block_devices.front());  // ~2.4 MiB
  inventory.file_systems.resize(kMaxFileSystems, inventory.file_systems.front());
  const auto big = frame_of(Envelope{1, 0, inventory});
  ASSERT_GT(big.size(), 1024U * 1024U);
  FrameDecoder decoder;
  decoder.feed(big);
  ASSERT_TRUE(std::holds_alternative<Envelope>(decoder.next()));
  EXPECT_LT(decoder.buffer_capacity(), 1024U * 1024U);
}

}  // namespace
}  // namespace iomark::protocol
