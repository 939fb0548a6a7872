// One descriptor per editable field: access-spec line fields, worker settings and test-setup
// numbers. This table is the single source of truth for names, units, limits, defaults and
// help text: validate() checks ranges against it, parse_spec_line() decides from it which
// fields take size suffixes, the CLI prints its help from it and the GUI editor takes its
// input limits from it (as fio's option table feeds fio's parser, help and GUI).
//
// All data is constant and static; the functions are thread-safe and never allocate, except
// check_field(), which builds an Error on failure.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::access_specs {

enum class FieldGroup : std::uint8_t {
  spec_line,   // AccessSpecLine, in the ICF column order
  worker,      // per-worker settings (ICF "Default target settings for worker")
  test_setup,  // TestSetup numbers (ICF "TEST SETUP")
};

// Descriptors are stored in FieldId order; each group is one contiguous run.
enum class FieldId : std::uint8_t {
  // spec_line (ICF order: size,% of size,% reads,% random,delay,burst,align,reply)
  size,
  percent_of_size,
  percent_reads,
  percent_random,
  delay,
  burst,
  align,
  reply,
  // worker
  outstanding_ios,
  max_disk_size_sectors,
  starting_sector,
  data_pattern,
  transactions_per_connection,
  fixed_seed,
  // test_setup
  run_time,
  ramp_up,
  queue_depth_start,
  queue_depth_end,
  queue_depth_step,
  worker_cycling_start,
  worker_cycling_step,
  target_cycling_start,
  target_cycling_step,
};

inline constexpr std::size_t kFieldCount = static_cast<std::size_t>(FieldId::target_cycling_step) + 1;

enum class FieldUnit : std::uint8_t {
  none,   // an identifier or a seed
  bytes,  // accepts size suffixes on input ("4k", "64KiB")
  percent,
  milliseconds,
  seconds,
  ios,          // I/Os or transactions
  sectors,      // the target's sector size (file-system block size for file targets)
  count,        // workers, targets
  enumeration,  // a numbered choice; the help text lists the values
};

struct FieldDescriptor {
  FieldId id;
  FieldGroup group;
  std::string_view key;       // stable snake_case name: CLI flags, Error::field(), scripts
  std::string_view icf_name;  // the field's name in the ICF key line, e.g. "% of size"
  std::string_view caption;   // the IOmeter 1.1.0 GUI caption, e.g. "Percent of Access Specification"
  FieldUnit unit;
  std::uint64_t min_value;  // inclusive
  std::uint64_t max_value;  // inclusive
  std::uint64_t default_value;
  std::string_view help;  // one or two sentences for tooltips and --help

  [[nodiscard]] constexpr bool accepts(std::uint64_t value) const noexcept {
    return value >= min_value && value <= max_value;
  }
};

// Every descriptor, in FieldId order.
[[nodiscard]] std::span<const FieldDescriptor> all_field_descriptors() noexcept;

// The descriptors of one group, in FieldId order.
[[nodiscard]] std::span<const FieldDescriptor> field_descriptors(FieldGroup group) noexcept;

[[nodiscard]] const FieldDescriptor& field_descriptor(FieldId id) noexcept;

// Lookup by `key`, exact match. nullptr when unknown.
[[nodiscard]] const FieldDescriptor* find_field(std::string_view key) noexcept;

// "B", "%", "ms", "s", "I/Os", "sectors", "" for none/count/enumeration.
[[nodiscard]] std::string_view to_string(FieldUnit unit) noexcept;

// Checks `value` against the descriptor's range. On failure: ErrorCode::invalid_argument,
// message "<context>: '<icf_name>' is <value>, must be at least <min>" (or "at most <max>"),
// field() = the descriptor's key. `context` names the owner, e.g. "spec 'X' line 2".
[[nodiscard]] Result<void> check_field(FieldId id, std::uint64_t value, std::string_view context);

}  // namespace iomark::access_specs
