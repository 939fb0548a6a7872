#include "iomark/workload/line_table.hpp"

#include <algorithm>
#include <string>

namespace iomark::workload {

Result<LineTable> LineTable::create(const access_specs::AccessSpec& spec) {
  if (spec.lines.empty()) {
    return fail(ErrorCode::invalid_argument, "access spec '" + spec.name + "' has no lines (Idle issues no I/O)");
  }
  LineTable table;
  table.lines_.reserve(spec.lines.size());
  std::uint32_t next_slot = 0;
  for (std::size_t i = 0; i < spec.lines.size(); ++i) {
    const auto& line = spec.lines[i];
    const auto index = static_cast<std::uint32_t>(i);
    if (line.size_bytes == 0) {
      return fail(Error(ErrorCode::invalid_argument, "access spec '" + spec.name + "' line " +
                                                         std::to_string(i + 1) + ": transfer size is 0")
                      .in_field("size"));
    }
    table.lines_.push_back(BurstLine{index, line});
    const std::uint32_t end = std::min(kLineSlots, next_slot + std::min(line.percent_of_size, kLineSlots));
    if (end > next_slot) {
      std::fill(table.slot_to_line_.begin() + next_slot, table.slot_to_line_.begin() + end,
                static_cast<std::uint8_t>(index));
      table.max_transfer_bytes_ = std::max({table.max_transfer_bytes_, line.size_bytes, line.reply_bytes});
      table.has_writes_ = table.has_writes_ || line.percent_reads < 100 || line.reply_bytes != 0;
      next_slot = end;
    }
  }
  if (next_slot < kLineSlots) {
    return fail(Error(ErrorCode::invalid_argument, "access spec '" + spec.name + "': % of size adds up to " +
                                                       std::to_string(next_slot) + ", not 100")
                    .in_field("% of size"));
  }
  return table;
}

std::uint32_t LineTable::slots_of(std::uint32_t line) const noexcept {
  return static_cast<std::uint32_t>(std::count(slot_to_line_.begin(), slot_to_line_.end(), line));
}

}  // namespace iomark::workload
