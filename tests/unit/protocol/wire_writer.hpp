// A tiny protobuf writer for tests: builds payloads byte by byte from the field numbers in
// protocol/proto/iomark/v1/*.proto, independently of the library's generated code, so
// tests can send what no well-behaved encoder would (out-of-range values, inconsistent
// histograms, unknown fields) and check the wire format from the outside.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace iomark::protocol::test {

class WireWriter {
 public:
  WireWriter& varint(std::uint32_t field, std::uint64_t value) {
    tag(field, 0);
    put_varint(value);
    return *this;
  }
  WireWriter& bytes(std::uint32_t field, std::string_view value) {
    tag(field, 2);
    put_varint(value.size());
    bytes_ += value;
    return *this;
  }
  WireWriter& message(std::uint32_t field, const WireWriter& inner) { return bytes(field, inner.bytes_); }
  WireWriter& packed(std::uint32_t field, std::initializer_list<std::uint64_t> values) {
    return packed(field, std::vector<std::uint64_t>(values));
  }
  WireWriter& packed(std::uint32_t field, const std::vector<std::uint64_t>& values) {
    WireWriter inner;
    for (const auto v : values) inner.put_varint(v);
    return bytes(field, inner.bytes_);
  }

  [[nodiscard]] const std::string& str() const noexcept { return bytes_; }
  [[nodiscard]] std::vector<std::byte> data() const {
    std::vector<std::byte> out(bytes_.size());
    for (std::size_t i = 0; i < bytes_.size(); ++i) out[i] = static_cast<std::byte>(bytes_[i]);
    return out;
  }

 private:
  void tag(std::uint32_t field, std::uint32_t wire_type) { put_varint((std::uint64_t{field} << 3) | wire_type); }
  void put_varint(std::uint64_t value) {
    while (value >= 0x80) {
      bytes_ += static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    bytes_ += static_cast<char>(value);
  }

  std::string bytes_;
};

// Field numbers of envelope.proto's oneof.
namespace envelope_field {
inline constexpr std::uint32_t request_id = 1;
inline constexpr std::uint32_t correlation_id = 2;
inline constexpr std::uint32_t hello = 3;
inline constexpr std::uint32_t auth_challenge = 4;
inline constexpr std::uint32_t heartbeat = 7;
inline constexpr std::uint32_t sample = 15;
inline constexpr std::uint32_t final_results = 16;
}  // namespace envelope_field

}  // namespace iomark::protocol::test
