#include "iomark/legacy/wire.hpp"

#include <charconv>

#include "byte_image.hpp"

namespace iomark::legacy {

std::string_view to_string(Purpose purpose) noexcept {
  switch (purpose) {
    case Purpose::login: return "LOGIN";
    case Purpose::add_workers: return "ADD_WORKERS";
    case Purpose::report_targets: return "REPORT_TARGETS";
    case Purpose::start: return "START";
    case Purpose::begin_io: return "BEGIN_IO";
    case Purpose::record_off: return "RECORD_OFF";
    case Purpose::stop: return "STOP";
    case Purpose::report_results: return "REPORT_RESULTS";
    case Purpose::report_update: return "REPORT_UPDATE";
    case Purpose::stop_prepare: return "STOP_PREPARE";
    case Purpose::set_targets: return "SET_TARGETS";
    case Purpose::set_access: return "SET_ACCESS";
    case Purpose::login_ok: return "LOGIN_OK";
    case Purpose::wrong_version: return "WRONG_VERSION";
    case Purpose::prep_disks: return "PREP_DISKS";
    case Purpose::ready: return "READY";
    case Purpose::record_on: return "RECORD_ON";
    case Purpose::reset: return "RESET";
    case Purpose::exit: return "EXIT";
  }
  return "";
}

bool is_known(Purpose purpose) noexcept { return !to_string(purpose).empty(); }

std::array<std::byte, kMessageBytes> encode_message(const Message& message) noexcept {
  std::array<std::byte, kMessageBytes> bytes{};
  image::put_i32(bytes, 0, static_cast<std::int32_t>(message.purpose));
  image::put_i32(bytes, 4, message.data);
  return bytes;
}

Result<Message> decode_message(std::span<const std::byte> bytes) {
  if (bytes.size() != kMessageBytes) {
    return fail(Error(ErrorCode::parse_error, "a Message is 8 bytes, got " + std::to_string(bytes.size()))
                    .in_field("Message"));
  }
  return Message{static_cast<Purpose>(image::get_i32(bytes, 0)), image::get_i32(bytes, 4)};
}

DataBlock make_data_block() { return DataBlock(kDataMessageBytes); }

std::int32_t data_block_size_field(std::span<const std::byte> block) noexcept {
  return block.size() < kDataUnionOffset ? 0 : image::get_i32(block, kDataSizeOffset);
}

std::int32_t data_block_count_field(std::span<const std::byte> block) noexcept {
  return block.size() < kDataUnionOffset ? 0 : image::get_i32(block, kDataCountOffset);
}

Result<std::int32_t> version_code(std::string_view version) {
  std::uint32_t parts[3]{};
  std::string_view rest = version;
  for (int i = 0; i < 3; ++i) {
    const auto* end = rest.data() + rest.size();
    const auto [next, ec] = std::from_chars(rest.data(), end, parts[i]);
    const bool separator_ok = i == 2 ? next == end : (next != end && *next == '.');
    if (ec != std::errc() || next == rest.data() || !separator_ok || parts[i] > 255) {
      return fail(Error(ErrorCode::parse_error,
                        "'" + std::string(version) + "' is not a version of the form major.minor.subminor")
                      .in_field("version"));
    }
    rest = std::string_view(next == end ? end : next + 1, end);
  }
  return static_cast<std::int32_t>(parts[0] << 24 | parts[1] << 8 | parts[2]);
}

Result<void> check_login(const Message& message) {
  if (message.purpose != Purpose::login) {
    return fail(Error(ErrorCode::parse_error, "expected LOGIN, got purpose 0x" +
                                                  [](std::uint32_t v) {
                                                    char text[9]{};
                                                    std::to_chars(text, text + 8, v, 16);
                                                    return std::string(text);
                                                  }(static_cast<std::uint32_t>(message.purpose)))
                    .in_field("Message.purpose"));
  }
  const auto code = static_cast<std::uint32_t>(message.data);
  if ((code & 0xFFFFFF00U) != static_cast<std::uint32_t>(kVersionCode_1_1_0)) {
    // An encoded version leaves bits 16..23 clear; pre-1.1.0 Dynamos sent a yyyymmdd date.
    const std::string version = (code & 0x00FF0000U) != 0
                                    ? "date-style " + std::to_string(code)
                                    : std::to_string(code >> 24) + "." + std::to_string((code >> 8) & 0xFF) +
                                          "." + std::to_string(code & 0xFF);
    return fail(Error(ErrorCode::unsupported, "Dynamo version " + version + " is not 1.1.x")
                    .in_field("LOGIN.data"));
  }
  return {};
}

}  // namespace iomark::legacy
