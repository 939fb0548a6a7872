// Target_Spec (docs/iometer-reference.md#wire-structs, 434 bytes each, up to 2048 at the union):
// the target lists of REPORT_TARGETS and SET_TARGETS (and its echo), with the Data_Message `count`.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/legacy/wire.hpp"

namespace iomark::legacy {

namespace target_spec_layout {
inline constexpr std::size_t kName = 0;  // char[80]
inline constexpr std::size_t kActualName = 80;
inline constexpr std::size_t kBasicName = 160;
inline constexpr std::size_t kNameBytes = 80;
inline constexpr std::size_t kReadOnly = 240;            // int32
inline constexpr std::size_t kReserved = 244;            // int32
inline constexpr std::size_t kTestConnectionRate = 248;  // int32
inline constexpr std::size_t kType = 252;                // uint32 TargetType mask
inline constexpr std::size_t kDetails = 256;             // union Disk_Spec / TCP_Spec / VI_Spec (146)
inline constexpr std::size_t kQueueDepth = 402;          // int32
inline constexpr std::size_t kDataPattern = 406;         // int32
inline constexpr std::size_t kTransactionsPerConnection = 410;  // int32
inline constexpr std::size_t kRandom = 414;              // uint64 RNG seed
inline constexpr std::size_t kUseFixedSeed = 422;        // int32
inline constexpr std::size_t kFixedSeedValue = 426;      // uint64
inline constexpr std::size_t kBytes = 434;
}  // namespace target_spec_layout

namespace disk_spec_layout {  // at target_spec_layout::kDetails
inline constexpr std::size_t kReserved = 0;  // uint32[5]
inline constexpr std::size_t kHasPartitions = 20;
inline constexpr std::size_t kNotMounted = 24;
inline constexpr std::size_t kReady = 28;
inline constexpr std::size_t kSectorSize = 32;
inline constexpr std::size_t kMaximumSize = 36;     // uint64 sectors
inline constexpr std::size_t kStartingSector = 44;  // uint64
inline constexpr std::size_t kBytes = 52;
}  // namespace disk_spec_layout

namespace tcp_spec_layout {  // at target_spec_layout::kDetails
inline constexpr std::size_t kLocalPort = 0;       // uint32
inline constexpr std::size_t kRemoteAddress = 4;   // char[80]
inline constexpr std::size_t kRemoteAddressBytes = 80;
inline constexpr std::size_t kRemotePort = 84;     // uint32
inline constexpr std::size_t kBytes = 88;
}  // namespace tcp_spec_layout

// TargetType bit masks. "Is type T" = (mask & T) == T.
namespace target_type {
inline constexpr std::uint32_t kGeneric = 0x80000000;
inline constexpr std::uint32_t kActive = 0x40000000;  // set by the GUI on targets of this run
inline constexpr std::uint32_t kGenericDisk = 0x88000000;
inline constexpr std::uint32_t kPhysicalDisk = 0x8C000000;
inline constexpr std::uint32_t kPhysicalDiskHasPartitions = 0x8C100000;
inline constexpr std::uint32_t kLogicalDisk = 0x8A000000;
inline constexpr std::uint32_t kGenericNet = 0x80080000;
inline constexpr std::uint32_t kGenericServer = 0x800C0000;
inline constexpr std::uint32_t kGenericClient = 0x800A0000;
inline constexpr std::uint32_t kGenericTcp = 0x80088000;
inline constexpr std::uint32_t kTcpServer = 0x800C8000;
inline constexpr std::uint32_t kTcpClient = 0x800A8000;
inline constexpr std::uint32_t kGenericVi = 0x80080800;
inline constexpr std::uint32_t kViServer = 0x800C0800;
inline constexpr std::uint32_t kViClient = 0x800A0800;
inline constexpr std::uint32_t kInvalid = 0x00000000;
}  // namespace target_type

[[nodiscard]] constexpr bool is_type(std::uint32_t mask, std::uint32_t type) noexcept { return (mask & type) == type; }

struct DiskDetails {
  bool has_partitions{false};
  bool not_mounted{false};
  bool ready{true};  // false: a logical disk whose iobw.tst must be prepared first (discovery only)
  std::uint32_t sector_size{512};  // discovery only: an assignment's is the GUI's leftover, often 0
  std::uint64_t maximum_size_sectors{};  // 0 = the whole target
  std::uint64_t starting_sector{};
  friend bool operator==(const DiskDetails&, const DiskDetails&) = default;
};

struct TcpDetails {
  std::uint16_t local_port{};
  std::string remote_address;
  std::uint16_t remote_port{};
  friend bool operator==(const TcpDetails&, const TcpDetails&) = default;
};

enum class DataPattern : std::uint8_t { repeating_bytes = 0, pseudo_random = 1, full_random = 2 };

struct TargetSpec {
  std::string name;         // "sdb", "/data [xfs]", or a NIC's dotted address
  std::string actual_name;  // Windows device path; empty from Linux
  std::string basic_name;   // Windows sort key; empty from Linux
  bool read_only{false};
  bool test_connection_rate{false};
  std::uint32_t type{target_type::kPhysicalDisk};  // a target_type mask, maybe with kActive
  std::variant<DiskDetails, TcpDetails> details;   // DiskDetails for disk types, TcpDetails for TCP
  // The per-target settings of SET_TARGETS (a discovery list leaves them undefined).
  std::uint32_t queue_depth{1};
  DataPattern data_pattern{DataPattern::repeating_bytes};
  std::uint32_t transactions_per_connection{1};
  std::uint64_t random_seed{};  // the seed a worker uses: the GUI's fixed seed, or a timestamp
  bool use_fixed_seed{false};
  // Not the seed: IOmeter 1.1.0 copies the fixed seed into random_seed and leaves this a
  // leftover of the discovery list; Dynamo never reads it.
  std::uint64_t fixed_seed_value{};
  friend bool operator==(const TargetSpec&, const TargetSpec&) = default;
};

// What a target list is for. Dynamo fills only names, type and disk facts in REPORT_TARGETS
// and leaves the per-target settings as leftovers of earlier blocks (spec §6.4), so a
// discovery decoder ignores them (keeps the defaults); an assignment decoder checks them.
enum class TargetListUse : std::uint8_t { discovery, assignment };

inline constexpr std::uint32_t kMaxQueueDepth = 65536;
inline constexpr std::uint32_t kMaxSectorSize = 1U << 20;

// The list with `count` = targets.size(). Errors: invalid_argument naming the field
// ("Target_Spec[2].name") for more than kMaxTargets targets, a name that does not fit, a
// type that is neither a disk nor a TCP type, or details of the other kind than the type.
[[nodiscard]] Result<DataBlock> encode_target_list(std::span<const TargetSpec> targets);
// Reads `count` entries and nothing after them (an IOmeter GUI leaves the rest of the block
// uninitialised). Errors: parse_error naming the field for a block that is not whole, a
// `count` outside 0..kMaxTargets, a string without NUL, an unknown type; for `discovery` a
// sector size outside 1..kMaxSectorSize; for `assignment` a queue depth outside
// 1..kMaxQueueDepth, a data pattern outside 0..2 or a negative transactions-per-connection.
// An assignment's disk_info.sector_size and ready are not checked: IOmeter 1.1.0 sends 0 in
// both, and Dynamo measures them itself (docs/iometer-gui-messages.md). VI targets are
// unsupported (ErrorCode::unsupported).
[[nodiscard]] Result<std::vector<TargetSpec>> decode_target_list(std::span<const std::byte> block,
                                                                 TargetListUse use);

}  // namespace iomark::legacy
