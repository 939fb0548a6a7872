// Frames: the unit of the byte stream between agent and controller, over TCP and over the
// in-memory link alike.
//
//   frame = "IOMK" (4 bytes) + payload length (u32, little-endian) + payload
//   payload = one serialized iomark.v1.Envelope (codec.hpp), at most kMaxFrameBytes
//
// FrameDecoder is a pure push parser: the transport feeds whatever bytes arrived (any split)
// and pulls complete messages. The length is checked against the maximum before a single
// byte of the payload is buffered for it, so a hostile length costs nothing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::protocol {

inline constexpr std::array<std::byte, 4> kFrameMagic{std::byte{'I'}, std::byte{'O'}, std::byte{'M'},
                                                      std::byte{'K'}};
inline constexpr std::size_t kFrameHeaderBytes = 8;
inline constexpr std::size_t kMaxFrameBytes = 16 * 1024 * 1024;  // payload bytes
// What a transport should accept before the peer has authenticated (Hello, auth messages
// and errors are small): a stranger then cannot make it reserve kMaxFrameBytes per
// connection, nor parse a large protobuf.
inline constexpr std::size_t kMaxHandshakeFrameBytes = 128 * 1024;

// One whole frame for `envelope`. Fails with invalid_argument (field "frame") when the
// payload is larger than `max_frame_bytes` (never more than kMaxFrameBytes).
[[nodiscard]] Result<std::vector<std::byte>> encode_frame(const Envelope& envelope,
                                                          std::size_t max_frame_bytes = kMaxFrameBytes);

// The decoder needs more bytes before it can say anything.
struct NeedMore {
  friend bool operator==(const NeedMore&, const NeedMore&) = default;
};

enum class FrameErrorKind : std::uint8_t {
  bad_magic,        // a frame did not start with "IOMK": not an iomark peer, or out of step
  frame_too_large,  // the length field is above the maximum
  bad_message,      // the payload failed decode() (codec.hpp); `error` has its code and field
};

struct FrameError {
  FrameErrorKind kind{FrameErrorKind::bad_magic};
  Error error{ErrorCode::parse_error, ""};  // readable message; field() for bad_message
  friend bool operator==(const FrameError&, const FrameError&) = default;
};

[[nodiscard]] std::string_view to_string(FrameErrorKind kind) noexcept;  // "bad magic", ...

using DecodeStep = std::variant<NeedMore, Envelope, FrameError>;

// Splits a byte stream into decoded envelopes.
//
// Use: feed() what arrived, then call next() until it returns NeedMore. After the first
// FrameError the decoder is failed for good: next() repeats that error and feed() drops
// its input (the stream cannot be resynchronised; the transport closes the connection).
//
// Memory: the buffer holds at most one partial frame plus the bytes of the last feed()
// not yet consumed; it is reserved only for a frame whose length passed the check, and
// released after a frame above 1 MiB. Not thread-safe; one decoder per connection.
class FrameDecoder {
 public:
  // Frames whose length is above `max_frame_bytes` (never more than kMaxFrameBytes) are
  // refused with frame_too_large.
  explicit FrameDecoder(std::size_t max_frame_bytes = kMaxFrameBytes) noexcept;

  // Changes the limit for frames not yet started, e.g. from kMaxHandshakeFrameBytes to
  // kMaxFrameBytes once the peer authenticated.
  void set_max_frame_bytes(std::size_t max_frame_bytes) noexcept;

  // Appends bytes that arrived, in any split; ignored once failed.
  void feed(std::span<const std::byte> bytes);
  // The next whole frame's envelope, NeedMore, or the error that failed the decoder.
  [[nodiscard]] DecodeStep next();

  [[nodiscard]] bool failed() const noexcept { return error_.has_value(); }
  // True while bytes of an unfinished frame are buffered. At the end of the stream this
  // means the peer closed mid-frame (a truncated frame).
  [[nodiscard]] bool mid_frame() const noexcept { return !failed() && read_ < buffer_.size(); }
  // Memory the decoder holds for its buffer, in bytes (for limits and their tests).
  [[nodiscard]] std::size_t buffer_capacity() const noexcept { return buffer_.capacity(); }

 private:
  DecodeStep fail_with(FrameErrorKind kind, Error error);
  void compact();

  std::size_t max_frame_bytes_;
  std::vector<std::byte> buffer_;
  std::size_t read_{0};  // start of the first unconsumed byte in buffer_
  std::optional<FrameError> error_;
};

}  // namespace iomark::protocol
