// The access specification model: what a worker does to its targets
// (docs/iometer-reference.md#access-semantics).
//
// Plain value types with no I/O. Parsers build them, `validate()` checks them, the agent
// executes them. Field ranges and help live in field_descriptors.hpp, not here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// Checks one spec: 1..100 lines, every field within the range of its descriptor
// (field_descriptors.hpp: percentages 0..100, size >= 1, burst >= 1, ...), `% of size`
// summing to exactly 100, a known default assignment, and a name the ICF can store: 1..127
// bytes, no ',' or '|', no control characters, no leading blank (the ICF reader drops it).
// Errors: ErrorCode::invalid_argument for a value outside its range, validation_error for
// the other rules. The message names the spec, the 1-based line and the field, e.g.
// "spec 'X' line 2: '% reads' is 101, must be at most 100" or
// "spec 'X': '% of size' totals 90, must be 100"; field() is the descriptor key.
[[nodiscard]] Result<void> validate(const AccessSpec& spec);

// Whether any line of `spec` that is ever chosen (a share of the size) writes: '% reads'
// below 100, or a reply to its reads.
[[nodiscard]] bool writes(const AccessSpec& spec) noexcept;

// Parses one `size,%size,%read,%random,delay,burst,align,reply` line (the CLI's
// --spec-line and the ICF's data lines share this grammar). Blanks around fields are
// ignored and one trailing comma is tolerated (results.csv writes it). Fields of unit bytes
// (size, align, reply) accept suffixes ("4k", "64KiB", via iomark::parse_size); the others
// take plain decimal digits. Stricter than IOmeter's atoi: "12abc", negative numbers and
// values above 4294967295 are errors. Ranges are validate()'s job, not the parser's.
// Errors: ErrorCode::parse_error naming the 1-based field and its ICF name; field() is the
// descriptor key (empty for a wrong field count).
[[nodiscard]] Result<AccessSpecLine> parse_spec_line(std::string_view text);

// "8192,100,67,100,0,1,0,0" -- the ICF's form of a line (plain numbers, no blanks).
// parse_spec_line(format_spec_line(x)) == x for every line.
[[nodiscard]] std::string format_spec_line(const AccessSpecLine& line);

// "NONE", "ALL", "DISK", "NET"; empty for a value outside the enumeration.
[[nodiscard]] std::string_view to_string(DefaultAssignment assignment) noexcept;

// The literals above, case-insensitively (numeric fallbacks are the ICF reader's job).
[[nodiscard]] std::optional<DefaultAssignment> parse_default_assignment(std::string_view literal) noexcept;

}  // namespace iomark::access_specs
