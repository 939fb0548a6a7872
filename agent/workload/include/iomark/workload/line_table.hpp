// The 100-slot line table Dynamo builds from an access spec (docs/iometer-reference.md#line-table).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"

namespace iomark::workload {

inline constexpr std::uint32_t kLineSlots = 100;

// One access-spec line as the hot path uses it.
struct BurstLine {
  std::uint32_t index{};  // 0-based position of the line in its spec
  access_specs::AccessSpecLine spec;
};

// Line 0 fills slots [0, %size0), line 1 the next %size1 slots, and so on; slots past 100 are
// dropped, as in Dynamo, so a line whose slots all fall past 100 never runs. A burst uses the
// line of slot WRand(100), which makes "% of size" the probability of a line per burst.
// Immutable after create(); safe to share between threads.
class LineTable {
 public:
  // Errors: a spec without lines (IOmeter's Idle, which issues no I/O), a line with size 0,
  // or % of size summing to less than 100 (slots would be left without a line). Sums above
  // 100 are accepted and cut at slot 100 as Dynamo does. The error names the 1-based line.
  [[nodiscard]] static Result<LineTable> create(const access_specs::AccessSpec& spec);

  // The line of `slot`; precondition: slot < kLineSlots.
  [[nodiscard]] const BurstLine& at_slot(std::uint32_t slot) const noexcept {
    return lines_[slot_to_line_[slot]];
  }
  [[nodiscard]] const std::vector<BurstLine>& lines() const noexcept { return lines_; }

  // How many of the 100 slots the 0-based line owns (its effective % of size).
  [[nodiscard]] std::uint32_t slots_of(std::uint32_t line) const noexcept;

  // The largest request or reply of any line that owns a slot: the per-slot buffer size.
  [[nodiscard]] std::uint32_t max_transfer_bytes() const noexcept { return max_transfer_bytes_; }

  // True when some reachable line can write (reads below 100 %, or a reply, which runs in the
  // opposite direction of its request). A worker without writes may open targets read-only.
  [[nodiscard]] bool has_writes() const noexcept { return has_writes_; }

 private:
  LineTable() = default;

  std::vector<BurstLine> lines_;
  std::array<std::uint8_t, kLineSlots> slot_to_line_{};
  std::uint32_t max_transfer_bytes_{};
  bool has_writes_{};
};

}  // namespace iomark::workload
