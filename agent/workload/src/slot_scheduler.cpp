#include "iomark/workload/slot_scheduler.hpp"

#include <algorithm>
#include <string>

namespace iomark::workload {

Result<SlotScheduler> SlotScheduler::create(std::span<const std::uint32_t> depth_per_target) {
  if (depth_per_target.empty()) return fail(ErrorCode::invalid_argument, "a worker needs at least one target");
  std::uint64_t total = 0;
  for (std::size_t t = 0; t < depth_per_target.size(); ++t) {
    if (depth_per_target[t] == 0) {
      return fail(Error(ErrorCode::invalid_argument, "target " + std::to_string(t + 1) + " has queue depth 0")
                      .in_field("# of Outstanding I/Os"));
    }
    total += depth_per_target[t];
  }
  if (total > UINT32_MAX) return fail(ErrorCode::invalid_argument, "too many outstanding I/Os for one worker");

  SlotScheduler scheduler;
  scheduler.depth_.assign(depth_per_target.begin(), depth_per_target.end());
  scheduler.taken_.assign(depth_per_target.size(), 0);
  scheduler.slot_target_.reserve(total);
  const std::uint32_t deepest = *std::max_element(depth_per_target.begin(), depth_per_target.end());
  for (std::uint32_t level = 0; level < deepest; ++level) {
    for (std::uint32_t t = 0; t < depth_per_target.size(); ++t) {
      if (depth_per_target[t] > level) scheduler.slot_target_.push_back(t);
    }
  }
  scheduler.fifo_.resize(total);
  for (std::uint32_t slot = 0; slot < total; ++slot) scheduler.fifo_[slot] = slot;
  scheduler.is_free_.assign(total, 1);
  scheduler.free_count_ = static_cast<std::uint32_t>(total);
  return scheduler;
}

std::optional<std::uint32_t> SlotScheduler::take() noexcept {
  if (free_count_ == 0) return std::nullopt;
  const std::uint32_t slot = fifo_[head_];
  head_ = head_ + 1 == fifo_.size() ? 0 : head_ + 1;
  --free_count_;
  is_free_[slot] = 0;
  ++taken_[slot_target_[slot]];
  return slot;
}

bool SlotScheduler::give_back(std::uint32_t slot) noexcept {
  if (slot >= slot_target_.size() || is_free_[slot] != 0) return false;
  std::size_t tail = head_ + free_count_;
  if (tail >= fifo_.size()) tail -= fifo_.size();
  fifo_[tail] = slot;
  ++free_count_;
  is_free_[slot] = 1;
  --taken_[slot_target_[slot]];
  return true;
}

}  // namespace iomark::workload
