// The access specification model: what a worker does to its targets (iometer-spec §1.6, §2).
//
// Plain value types with no I/O. Parsers build them, `validate()` checks them, the agent
// executes them. Field ranges and help live in field_descriptors.hpp, not here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iomark/common/result.hpp"

namespace iomark::access_specs {

// One line of `size,% of size,% reads,% random,delay,burst,align,reply`.
struct AccessSpecLine {
  std::uint32_t size_bytes{2048};
  std::uint32_t percent_of_size{100};  // probability that a burst uses this line
  std::uint32_t percent_reads{67};
  std::uint32_t percent_random{100};
  std::uint32_t delay_ms{0};            // wait before each burst
  std::uint32_t burst_transactions{1};  // transactions that share this line
  std::uint32_t align_bytes{0};         // 0 = the target's sector size
  std::uint32_t reply_bytes{0};         // 0 = no reply I/O

  friend bool operator==(const AccessSpecLine&, const AccessSpecLine&) = default;
};

// Which newly created workers receive a spec automatically (the ICF's "default assignment").
enum class DefaultAssignment : std::uint8_t { none = 0, all = 1, disk = 2, network = 3 };

inline constexpr std::size_t kMaxSpecLines = 100;
inline constexpr std::size_t kMaxSpecNameLength = 127;

struct AccessSpec {
  std::string name;
  DefaultAssignment default_assignment{DefaultAssignment::none};
  std::vector<AccessSpecLine> lines;

  friend bool operator==(const AccessSpec&, const AccessSpec&) = default;
};

// Checks one spec: 1..100 lines, every percentage within 0..100, `% of size` summing to
// exactly 100, sizes > 0, burst >= 1, a name without ',' or '|' (the ICF cannot hold them).
// The error names the spec, the 1-based line and the field.
[[nodiscard]] Result<void> validate(const AccessSpec& spec);

// Parses one `size,%size,%read,%random,delay,burst,align,reply` line (the CLI's
// --spec-line and the ICF's data lines share this grammar). Sizes accept suffixes
// ("4k", "64KiB"). The error names the field.
[[nodiscard]] Result<AccessSpecLine> parse_spec_line(std::string_view text);

// "8192,100,67,100,0,1,0,0" -- the ICF's form of a line.
[[nodiscard]] std::string format_spec_line(const AccessSpecLine& line);

[[nodiscard]] std::string_view to_string(DefaultAssignment assignment) noexcept;

}  // namespace iomark::access_specs
