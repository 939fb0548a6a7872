#include "iomark/legacy/manager_info.hpp"

#include <cmath>

#include "byte_image.hpp"

namespace iomark::legacy {

namespace layout = manager_info_layout;

namespace {

constexpr std::size_t at(std::size_t member_offset) { return kDataUnionOffset + member_offset; }

bool plausible_timer_resolution(double hz) { return std::isfinite(hz) && hz > 0 && hz <= kMaxTimerResolutionHz; }

}  // namespace

Result<DataBlock> encode_manager_info(const ManagerInfo& info) {
  if (info.processors == 0 || info.processors > kMaxProcessors) {
    return fail(Error(ErrorCode::invalid_argument, "processor count " + std::to_string(info.processors) +
                                                       " is outside 1.." + std::to_string(kMaxProcessors))
                    .in_field("Manager_Info.processors"));
  }
  if (!plausible_timer_resolution(info.timer_resolution_hz)) {
    return fail(Error(ErrorCode::invalid_argument, "timer resolution must be a positive number of ticks per second")
                    .in_field("Manager_Info.timer_resolution"));
  }
  auto block = make_data_block();
  image::put_i32(block, kDataSizeOffset, static_cast<std::int32_t>(kDataMessageBytes));
  if (auto r = image::put_string(block, at(layout::kVersion), layout::kVersionBytes, info.version,
                                 "Manager_Info.version");
      !r) {
    return fail(r.error());
  }
  if (auto r = image::put_string(block, at(layout::kManagerName), layout::kNameBytes, info.manager_name,
                                 "Manager_Info.names[0]");
      !r) {
    return fail(r.error());
  }
  if (auto r = image::put_string(block, at(layout::kNetworkAddress), layout::kNameBytes, info.network_address,
                                 "Manager_Info.names[1]");
      !r) {
    return fail(r.error());
  }
  image::put_u16(block, at(layout::kPortNumber), info.command_port);
  image::put_i32(block, at(layout::kProcessors), static_cast<std::int32_t>(info.processors));
  image::put_f64(block, at(layout::kTimerResolution), info.timer_resolution_hz);
  return block;
}

Result<ManagerInfo> decode_manager_info(std::span<const std::byte> block) {
  if (auto whole = image::check_whole_block(block, "login"); !whole) return fail(whole.error());
  if (const auto size = data_block_size_field(block); size != static_cast<std::int32_t>(kDataMessageBytes)) {
    return fail(Error(ErrorCode::parse_error, "login block says its size is " + std::to_string(size) + ", not " +
                                                  std::to_string(kDataMessageBytes) +
                                                  " (check structure packing)")
                    .in_field("Data_Message.size"));
  }
  ManagerInfo info;
  auto version = image::get_string(block, at(layout::kVersion), layout::kVersionBytes, "Manager_Info.version");
  if (!version) return fail(version.error());
  auto name = image::get_string(block, at(layout::kManagerName), layout::kNameBytes, "Manager_Info.names[0]");
  if (!name) return fail(name.error());
  auto address =
      image::get_string(block, at(layout::kNetworkAddress), layout::kNameBytes, "Manager_Info.names[1]");
  if (!address) return fail(address.error());
  info.version = std::move(*version);
  info.manager_name = std::move(*name);
  info.network_address = std::move(*address);
  info.command_port = image::get_u16(block, at(layout::kPortNumber));
  const auto processors = image::get_i32(block, at(layout::kProcessors));
  if (processors < 1 || static_cast<std::uint32_t>(processors) > kMaxProcessors) {
    return fail(Error(ErrorCode::parse_error, "processor count " + std::to_string(processors) +
                                                  " is outside 1.." + std::to_string(kMaxProcessors))
                    .in_field("Manager_Info.processors"));
  }
  info.processors = static_cast<std::uint32_t>(processors);
  info.timer_resolution_hz = image::get_f64(block, at(layout::kTimerResolution));
  if (!plausible_timer_resolution(info.timer_resolution_hz)) {
    return fail(Error(ErrorCode::parse_error, "timer resolution is not a positive tick rate")
                    .in_field("Manager_Info.timer_resolution"));
  }
  return info;
}

}  // namespace iomark::legacy
