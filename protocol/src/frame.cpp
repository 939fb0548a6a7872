#include "iomark/protocol/frame.hpp"

#include <algorithm>
#include <string>

#include "iomark/protocol/codec.hpp"

namespace iomark::protocol {

namespace {

// After a frame this large the buffer is given back, so that one big inventory does not
// pin its memory for the rest of the session.
constexpr std::size_t kKeptCapacityBytes = 1024 * 1024;

std::uint32_t read_u32_le(const std::byte* p) noexcept {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

void write_u32_le(std::uint32_t value, std::byte* p) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::byte>(value >> (8 * i));
}

std::string hex(std::span<const std::byte> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const auto b : bytes) {
    const auto v = static_cast<unsigned>(b);
    text += kDigits[v >> 4];
    text += kDigits[v & 0xf];
  }
  return text;
}

}  // namespace

std::string_view to_string(FrameErrorKind kind) noexcept {
  switch (kind) {
    case FrameErrorKind::bad_magic: return "bad magic";
    case FrameErrorKind::frame_too_large: return "frame too large";
    case FrameErrorKind::bad_message: return "bad message";
  }
  return "";
}

Result<std::vector<std::byte>> encode_frame(const Envelope& envelope, std::size_t max_frame_bytes) {
  auto payload = encode(envelope);
  if (payload.size() > std::min(max_frame_bytes, kMaxFrameBytes)) {
    return fail(Error(ErrorCode::invalid_argument,
                      "message '" + std::string(message_name(envelope.message)) + "' is " +
                          std::to_string(payload.size()) + " bytes, a frame carries at most " +
                          std::to_string(std::min(max_frame_bytes, kMaxFrameBytes)))
                    .in_field("frame"));
  }
  std::vector<std::byte> frame(kFrameHeaderBytes + payload.size());
  std::copy(kFrameMagic.begin(), kFrameMagic.end(), frame.begin());
  write_u32_le(static_cast<std::uint32_t>(payload.size()), frame.data() + kFrameMagic.size());
  std::copy(payload.begin(), payload.end(), frame.begin() + kFrameHeaderBytes);
  return frame;
}

FrameDecoder::FrameDecoder(std::size_t max_frame_bytes) noexcept
    : max_frame_bytes_(std::min(max_frame_bytes, kMaxFrameBytes)) {}

void FrameDecoder::set_max_frame_bytes(std::size_t max_frame_bytes) noexcept {
  max_frame_bytes_ = std::min(max_frame_bytes, kMaxFrameBytes);
}

void FrameDecoder::feed(std::span<const std::byte> bytes) {
  if (failed()) return;
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
}

DecodeStep FrameDecoder::next() {
  if (error_) return *error_;
  const std::span<const std::byte> pending(buffer_.data() + read_, buffer_.size() - read_);

  // The magic is checked as soon as its bytes arrive, so garbage fails at once.
  const auto magic_bytes = std::min(pending.size(), kFrameMagic.size());
  if (!std::equal(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(magic_bytes), kFrameMagic.begin())) {
    return fail_with(FrameErrorKind::bad_magic,
                     Error(ErrorCode::parse_error, "the stream does not start a frame with \"IOMK\" (got 0x" +
                                                       hex(pending.first(magic_bytes)) + "): not an iomark peer?"));
  }
  if (pending.size() < kFrameHeaderBytes) return NeedMore{};

  const std::size_t length = read_u32_le(pending.data() + kFrameMagic.size());
  if (length > max_frame_bytes_) {
    return fail_with(FrameErrorKind::frame_too_large,
                     Error(ErrorCode::invalid_argument, "the peer announced a frame of " + std::to_string(length) +
                                                            " bytes, at most " + std::to_string(max_frame_bytes_) +
                                                            " are accepted"));
  }
  if (pending.size() < kFrameHeaderBytes + length) {
    // The length passed the check: room for the whole frame now spares regrowing later.
    buffer_.reserve(read_ + kFrameHeaderBytes + length);
    return NeedMore{};
  }

  auto envelope = decode(pending.subspan(kFrameHeaderBytes, length));
  read_ += kFrameHeaderBytes + length;
  compact();
  if (!envelope) return fail_with(FrameErrorKind::bad_message, std::move(envelope).error());
  return std::move(*envelope);
}

DecodeStep FrameDecoder::fail_with(FrameErrorKind kind, Error error) {
  error_ = FrameError{kind, std::move(error)};
  // Not `buffer_ = {}`: that assigns an empty initializer list and keeps the capacity.
  std::vector<std::byte>().swap(buffer_);
  read_ = 0;
  return *error_;
}

void FrameDecoder::compact() {
  if (read_ == buffer_.size()) {
    buffer_.clear();
    read_ = 0;
    if (buffer_.capacity() > kKeptCapacityBytes) buffer_.shrink_to_fit();
  } else if (read_ > buffer_.size() / 2) {
    // Moving the rest down costs less than what was consumed, so the total stays linear.
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(read_));
    read_ = 0;
  }
}

}  // namespace iomark::protocol
