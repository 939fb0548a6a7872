#include "iomark/access_specs/field_descriptors.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "iomark/common/outstanding_ios.hpp"

namespace iomark::access_specs {
namespace {

// Upper limits. Every limit stays within what IOmeter 1.1.0 can read back (its ICF reader
// converts with atoi, so nothing above INT32_MAX survives a round trip through it).
constexpr std::uint64_t kIcfIntMax = std::numeric_limits<std::int32_t>::max();
// Linux moves at most MAX_RW_COUNT (INT_MAX rounded down to a 4 KiB page) per read or
// write; a larger transfer would silently come back short.
constexpr std::uint64_t kMaxTransferBytes = 2147479552;
constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

using enum FieldId;
using enum FieldGroup;
using enum FieldUnit;

constexpr std::array<FieldDescriptor, kFieldCount> kDescriptors{{
    {size, spec_line, "size", "size", "Transfer Request Size", bytes, 1, kMaxTransferBytes, 2048,
     "Bytes moved by each I/O of this line. Accepts suffixes such as 4k or 64KiB."},
    {percent_of_size, spec_line, "percent_of_size", "% of size", "Percent of Access Specification", percent,
     0, 100, 100, "Share of bursts that use this line; the lines of a spec must total exactly 100."},
    {percent_reads, spec_line, "percent_reads", "% reads", "Percent Read/Write Distribution", percent, 0, 100,
     67, "Probability that a transaction is a read; the rest are writes."},
    {percent_random, spec_line, "percent_random", "% random", "Percent Random/Sequential Distribution",
     percent, 0, 100, 100,
     "Probability that an I/O goes to a random offset; the rest continue where the previous "
     "I/O to that target ended."},
    {delay, spec_line, "delay", "delay", "Transfer Delay", milliseconds, 0, kIcfIntMax, 0,
     "Pause before each burst; in-flight I/O keeps completing meanwhile. 0 = no pause."},
    {burst, spec_line, "burst", "burst", "Burst Length", ios, 1, kIcfIntMax, 1,
     "Consecutive transactions that share this line (size, read and random share, "
     "alignment, reply) before the next line is drawn."},
    {align, spec_line, "align", "align", "Align I/Os on", bytes, 0, kIcfIntMax, 0,
     "Offsets are rounded up to a multiple of this many bytes. 0 = the target's sector size "
     "(IOmeter 1.1.0's editor proposes the request size for new lines)."},
    {reply, spec_line, "reply", "reply", "Reply Size", bytes, 0, kMaxTransferBytes, 0,
     "Size of a second I/O in the opposite direction after each request completes. "
     "0 = no reply."},

    {outstanding_ios, worker, "outstanding_ios", "Number of outstanding IOs", "# of Outstanding I/Os", ios, 1,
     kMaxOutstandingIosPerTarget, 1, "I/Os kept in flight per target (queue depth). Network workers always use 1."},
    {max_disk_size_sectors, worker, "max_disk_size_sectors", "Disk maximum size", "Maximum Disk Size",
     sectors, 0, kU64Max, 0,
     "Length of the region tested, in sectors from the starting sector. 0 = up to the end of "
     "the target."},
    {starting_sector, worker, "starting_sector", "starting sector", "Starting Disk Sector", sectors, 0,
     kU64Max, 0, "First sector of the region tested."},
    {data_pattern, worker, "data_pattern", "Data pattern", "Write IO Data Pattern", enumeration, 0, 2, 0,
     "Data written: 0 = repeating bytes (refilled before every write), 1 = pseudo random "
     "(filled once), 2 = full random (drawn from a large random buffer)."},
    {transactions_per_connection, worker, "transactions_per_connection", "transactions per connection",
     "Transactions per connection", ios, 0, kIcfIntMax, 1,
     "With Test Connection Rate on: transactions between closing and reopening each target. "
     "0 = open and close without I/O."},
    {fixed_seed, worker, "fixed_seed", "fixed seed value", "Fixed Seed Value", none, 0, kU64Max, 0,
     "With Use Fixed Seed on: the random seed given to every target of the worker, so that "
     "runs repeat the same offsets and decisions."},

    {run_time, test_setup, "run_time", "Run Time", "Run Time", seconds, 0, kU32Max, 0,
     "Measured time of each run. 0 = run until stopped."},
    {ramp_up, test_setup, "ramp_up", "Ramp Up Time (s)", "Ramp Up Time", seconds, 0, kIcfIntMax, 0,
     "Time I/O runs before recording starts; its results are discarded."},
    {queue_depth_start, test_setup, "queue_depth_start", "Queue Depth Cycling start",
     "# of Outstanding I/Os: Start", ios, 1, kMaxOutstandingIosPerTarget, 1,
     "First queue depth of a Cycle # Outstanding I/Os series."},
    {queue_depth_end, test_setup, "queue_depth_end", "Queue Depth Cycling end", "# of Outstanding I/Os: End",
     ios, 1, kMaxOutstandingIosPerTarget, 32, "Largest queue depth of the series; must not be below the start."},
    {queue_depth_step, test_setup, "queue_depth_step", "Queue Depth Cycling step",
     "# of Outstanding I/Os: Step", count, 1, kIcfIntMax, 2,
     "Added to the queue depth (linear) or its multiplier (exponential, \"Power of\")."},
    {worker_cycling_start, test_setup, "worker_cycling_start", "Worker Cycling start", "Workers: Start",
     count, 1, kIcfIntMax, 1, "Workers per manager in the first run of a series."},
    {worker_cycling_step, test_setup, "worker_cycling_step", "Worker Cycling step", "Workers: Step", count, 1,
     kIcfIntMax, 1, "Added to the worker count (linear) or its multiplier (exponential)."},
    {target_cycling_start, test_setup, "target_cycling_start", "Disk Cycling start", "Targets: Start", count,
     1, kIcfIntMax, 1, "Targets per worker (or per manager) in the first run of a series."},
    {target_cycling_step, test_setup, "target_cycling_step", "Disk Cycling step", "Targets: Step", count, 1,
     kIcfIntMax, 1, "Added to the target count (linear) or its multiplier (exponential)."},
}};

consteval bool descriptors_in_id_order() {
  for (std::size_t i = 0; i < kDescriptors.size(); ++i) {
    if (static_cast<std::size_t>(kDescriptors[i].id) != i) return false;
    if (i > 0 && kDescriptors[i].group < kDescriptors[i - 1].group) return false;
    const auto& d = kDescriptors[i];
    if (d.min_value > d.max_value || !d.accepts(d.default_value)) return false;
  }
  return true;
}
static_assert(descriptors_in_id_order(),
              "descriptors must be in FieldId order, grouped, with defaults inside their ranges");

}  // namespace

std::span<const FieldDescriptor> all_field_descriptors() noexcept { return kDescriptors; }

std::span<const FieldDescriptor> field_descriptors(FieldGroup group) noexcept {
  const auto* first = std::find_if(kDescriptors.begin(), kDescriptors.end(),
                                   [group](const FieldDescriptor& d) { return d.group == group; });
  const auto* last =
      std::find_if(first, kDescriptors.end(), [group](const FieldDescriptor& d) { return d.group != group; });
  return {first, last};
}

const FieldDescriptor& field_descriptor(FieldId id) noexcept {
  return kDescriptors[static_cast<std::size_t>(id)];
}

const FieldDescriptor* find_field(std::string_view key) noexcept {
  const auto* it = std::find_if(kDescriptors.begin(), kDescriptors.end(),
                                [key](const FieldDescriptor& d) { return d.key == key; });
  return it == kDescriptors.end() ? nullptr : it;
}

std::string_view to_string(FieldUnit unit) noexcept {
  switch (unit) {
    case FieldUnit::bytes: return "B";
    case FieldUnit::percent: return "%";
    case FieldUnit::milliseconds: return "ms";
    case FieldUnit::seconds: return "s";
    case FieldUnit::ios: return "I/Os";
    case FieldUnit::sectors: return "sectors";
    case FieldUnit::none:
    case FieldUnit::count:
    case FieldUnit::enumeration: return "";
  }
  return "";
}

Result<void> check_field(FieldId id, std::uint64_t value, std::string_view context) {
  const FieldDescriptor& d = field_descriptor(id);
  if (d.accepts(value)) return {};
  std::string message(context);
  message += ": '";
  message += d.icf_name;
  message += "' is " + std::to_string(value) + ", must be ";
  message += value < d.min_value ? "at least " + std::to_string(d.min_value)
                                 : "at most " + std::to_string(d.max_value);
  return fail(Error(ErrorCode::invalid_argument, std::move(message)).in_field(std::string(d.key)));
}

}  // namespace iomark::access_specs
