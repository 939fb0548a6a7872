#include "iomark/legacy/target_spec.hpp"

#include <limits>

#include "byte_image.hpp"

namespace iomark::legacy {

namespace layout = target_spec_layout;
namespace disk = disk_spec_layout;
namespace tcp = tcp_spec_layout;

namespace {

constexpr std::size_t target_offset(std::size_t index) { return kDataUnionOffset + index * layout::kBytes; }

std::string field_of(std::size_t index, std::string_view member) {
  return "Target_Spec[" + std::to_string(index) + "]." + std::string(member);
}

Error bad(ErrorCode code, std::size_t index, std::string_view member, std::string message) {
  return Error(code, std::move(message)).in_field(field_of(index, member));
}

enum class TypeKind : std::uint8_t { disk, tcp, vi, unknown };

TypeKind kind_of(std::uint32_t mask) {
  switch (mask & ~target_type::kActive) {
    case target_type::kPhysicalDisk:
    case target_type::kPhysicalDiskHasPartitions:
    case target_type::kLogicalDisk: return TypeKind::disk;
    case target_type::kTcpServer:
    case target_type::kTcpClient: return TypeKind::tcp;
    case target_type::kViServer:
    case target_type::kViClient: return TypeKind::vi;
    default: return TypeKind::unknown;
  }
}

std::string hex(std::uint32_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string text = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) text += kDigits[(value >> shift) & 0xF];
  return text;
}

Result<void> encode_one(std::span<std::byte> block, std::size_t index, const TargetSpec& target) {
  const auto base = target_offset(index);
  for (const auto& [offset, member, text] : {std::tuple{layout::kName, "name", &target.name},
                                             std::tuple{layout::kActualName, "actual_name", &target.actual_name},
                                             std::tuple{layout::kBasicName, "basic_name", &target.basic_name}}) {
    if (auto r = image::put_string(block, base + offset, layout::kNameBytes, *text, field_of(index, member)); !r) {
      return r;
    }
  }
  const auto kind = kind_of(target.type);
  if (kind == TypeKind::unknown || kind == TypeKind::vi) {
    return fail(bad(ErrorCode::invalid_argument, index, "type", hex(target.type) + " is not a disk or TCP target type"));
  }
  if ((kind == TypeKind::disk) != std::holds_alternative<DiskDetails>(target.details)) {
    return fail(bad(ErrorCode::invalid_argument, index, "type",
                    hex(target.type) + " does not match the kind of the target's details"));
  }
  image::put_i32(block, base + layout::kReadOnly, target.read_only ? 1 : 0);
  image::put_i32(block, base + layout::kTestConnectionRate, target.test_connection_rate ? 1 : 0);
  image::put_u32(block, base + layout::kType, target.type);
  const auto details = base + layout::kDetails;
  if (const auto* d = std::get_if<DiskDetails>(&target.details)) {
    image::put_i32(block, details + disk::kHasPartitions, d->has_partitions ? 1 : 0);
    image::put_i32(block, details + disk::kNotMounted, d->not_mounted ? 1 : 0);
    image::put_i32(block, details + disk::kReady, d->ready ? 1 : 0);
    image::put_i32(block, details + disk::kSectorSize, static_cast<std::int32_t>(d->sector_size));
    image::put_u64(block, details + disk::kMaximumSize, d->maximum_size_sectors);
    image::put_u64(block, details + disk::kStartingSector, d->starting_sector);
  } else {
    const auto& t = std::get<TcpDetails>(target.details);
    image::put_u32(block, details + tcp::kLocalPort, t.local_port);
    if (auto r = image::put_string(block, details + tcp::kRemoteAddress, tcp::kRemoteAddressBytes,
                                   t.remote_address, field_of(index, "tcp_info.remote_address"));
        !r) {
      return r;
    }
    image::put_u32(block, details + tcp::kRemotePort, t.remote_port);
  }
  if (target.queue_depth > kMaxQueueDepth ||
      target.transactions_per_connection > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max())) {
    return fail(bad(ErrorCode::invalid_argument, index, "queue_depth",
                    "queue depth or transactions per connection out of range"));
  }
  image::put_i32(block, base + layout::kQueueDepth, static_cast<std::int32_t>(target.queue_depth));
  image::put_i32(block, base + layout::kDataPattern, static_cast<std::int32_t>(target.data_pattern));
  image::put_i32(block, base + layout::kTransactionsPerConnection,
                 static_cast<std::int32_t>(target.transactions_per_connection));
  image::put_u64(block, base + layout::kRandom, target.random_seed);
  image::put_i32(block, base + layout::kUseFixedSeed, target.use_fixed_seed ? 1 : 0);
  image::put_u64(block, base + layout::kFixedSeedValue, target.fixed_seed_value);
  return {};
}

Result<TargetSpec> decode_one(std::span<const std::byte> block, std::size_t index, TargetListUse use) {
  const auto base = target_offset(index);
  TargetSpec target;
  for (auto [offset, member, text] : {std::tuple{layout::kName, "name", &target.name},
                                      std::tuple{layout::kActualName, "actual_name", &target.actual_name},
                                      std::tuple{layout::kBasicName, "basic_name", &target.basic_name}}) {
    auto value = image::get_string(block, base + offset, layout::kNameBytes, field_of(index, member));
    if (!value) return fail(value.error());
    *text = std::move(*value);
  }
  target.read_only = image::get_i32(block, base + layout::kReadOnly) != 0;
  target.test_connection_rate = image::get_i32(block, base + layout::kTestConnectionRate) != 0;
  target.type = image::get_u32(block, base + layout::kType);
  const auto details = base + layout::kDetails;
  switch (kind_of(target.type)) {
    case TypeKind::disk: {
      DiskDetails d;
      d.has_partitions = image::get_i32(block, details + disk::kHasPartitions) != 0;
      d.not_mounted = image::get_i32(block, details + disk::kNotMounted) != 0;
      d.ready = image::get_i32(block, details + disk::kReady) != 0;
      const auto sector_size = image::get_i32(block, details + disk::kSectorSize);
      // An assignment's sector size and ready flag are the GUI's worker defaults (zero from
      // IOmeter 1.1.0): Dynamo never reads them, it measures both when it opens the target
      // (docs/iometer-gui-messages.md). They are kept as sent, unchecked and unused.
      if (use == TargetListUse::discovery &&
          (sector_size < 1 || static_cast<std::uint32_t>(sector_size) > kMaxSectorSize)) {
        return fail(bad(ErrorCode::parse_error, index, "disk_info.sector_size",
                        std::to_string(sector_size) + " is outside 1.." + std::to_string(kMaxSectorSize)));
      }
      d.sector_size = static_cast<std::uint32_t>(sector_size);
      d.maximum_size_sectors = image::get_u64(block, details + disk::kMaximumSize);
      d.starting_sector = image::get_u64(block, details + disk::kStartingSector);
      target.details = d;
      break;
    }
    case TypeKind::tcp: {
      TcpDetails t;
      const auto local_port = image::get_u32(block, details + tcp::kLocalPort);
      const auto remote_port = image::get_u32(block, details + tcp::kRemotePort);
      // Dynamo fills a NIC entry's name and type only: its ports are leftovers until assigned.
      if (use == TargetListUse::assignment && (local_port > 0xFFFF || remote_port > 0xFFFF)) {
        return fail(bad(ErrorCode::parse_error, index, "tcp_info",
                        "port " + std::to_string(std::max(local_port, remote_port)) + " is above 65535"));
      }
      if (use == TargetListUse::assignment) {
        auto address = image::get_string(block, details + tcp::kRemoteAddress, tcp::kRemoteAddressBytes,
                                         field_of(index, "tcp_info.remote_address"));
        if (!address) return fail(address.error());
        t.remote_address = std::move(*address);
        t.local_port = static_cast<std::uint16_t>(local_port);
        t.remote_port = static_cast<std::uint16_t>(remote_port);
      }
      target.details = std::move(t);
      break;
    }
    case TypeKind::vi:
      return fail(bad(ErrorCode::unsupported, index, "type", "VI targets are not supported"));
    case TypeKind::unknown:
      return fail(bad(ErrorCode::parse_error, index, "type", hex(target.type) + " is not a target type"));
  }
  if (use == TargetListUse::discovery) return target;

  const auto queue_depth = image::get_i32(block, base + layout::kQueueDepth);
  if (queue_depth < 1 || static_cast<std::uint32_t>(queue_depth) > kMaxQueueDepth) {
    return fail(bad(ErrorCode::parse_error, index, "queue_depth",
                    std::to_string(queue_depth) + " is outside 1.." + std::to_string(kMaxQueueDepth)));
  }
  target.queue_depth = static_cast<std::uint32_t>(queue_depth);
  const auto pattern = image::get_i32(block, base + layout::kDataPattern);
  if (pattern < 0 || pattern > static_cast<std::int32_t>(DataPattern::full_random)) {
    return fail(bad(ErrorCode::parse_error, index, "DataPattern", std::to_string(pattern) + " is outside 0..2"));
  }
  target.data_pattern = static_cast<DataPattern>(pattern);
  const auto per_connection = image::get_i32(block, base + layout::kTransactionsPerConnection);
  if (per_connection < 0) {
    return fail(bad(ErrorCode::parse_error, index, "trans_per_conn", std::to_string(per_connection) + " is negative"));
  }
  target.transactions_per_connection = static_cast<std::uint32_t>(per_connection);
  target.random_seed = image::get_u64(block, base + layout::kRandom);
  target.use_fixed_seed = image::get_i32(block, base + layout::kUseFixedSeed) != 0;
  target.fixed_seed_value = image::get_u64(block, base + layout::kFixedSeedValue);
  return target;
}

}  // namespace

Result<DataBlock> encode_target_list(std::span<const TargetSpec> targets) {
  if (targets.size() > kMaxTargets) {
    return fail(Error(ErrorCode::invalid_argument, std::to_string(targets.size()) + " targets, at most " +
                                                       std::to_string(kMaxTargets) + " fit")
                    .in_field("Data_Message.count"));
  }
  auto block = make_data_block();
  image::put_i32(block, kDataCountOffset, static_cast<std::int32_t>(targets.size()));
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (auto r = encode_one(block, i, targets[i]); !r) return fail(r.error());
  }
  return block;
}

Result<std::vector<TargetSpec>> decode_target_list(std::span<const std::byte> block, TargetListUse use) {
  if (auto whole = image::check_whole_block(block, "target list"); !whole) return fail(whole.error());
  const auto count = data_block_count_field(block);
  if (count < 0 || static_cast<std::size_t>(count) > kMaxTargets) {
    return fail(Error(ErrorCode::parse_error, "target count " + std::to_string(count) + " is outside 0.." +
                                                  std::to_string(kMaxTargets))
                    .in_field("Data_Message.count"));
  }
  std::vector<TargetSpec> targets;
  targets.reserve(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    auto target = decode_one(block, i, use);
    if (!target) return fail(target.error());
    targets.push_back(std::move(*target));
  }
  return targets;
}

}  // namespace iomark::legacy
