// Outstanding-I/O slots of one worker (docs/iometer-reference.md#queue-depth).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "iomark/common/result.hpp"

namespace iomark::workload {

// A worker with targets t0..tn-1 gets sum(queue_depth(ti)) transaction slots; each slot is
// bound to one target for good. Free slots wait in a FIFO whose initial order interleaves the
// targets round-robin by depth level (t0, t1, ..., t0, t1, ... while each still has depth);
// slot ids follow that initial order. A slot is taken from the head to issue an I/O and
// returned to the tail when that I/O completes, so a target never has more I/Os in flight than
// its depth and the target order follows completion order, as in Dynamo.
//
// Memory is allocated by create() only; take() and give_back() are O(1) and never allocate.
// Not thread-safe: one worker thread owns it.
class SlotScheduler {
 public:
  // Errors (invalid_argument): no targets, or a target with depth 0.
  [[nodiscard]] static Result<SlotScheduler> create(std::span<const std::uint32_t> depth_per_target);

  // The slot at the head of the free FIFO, or nullopt when every slot is in use.
  [[nodiscard]] std::optional<std::uint32_t> take() noexcept;

  // Puts a taken slot back at the tail. Returns false (and changes nothing) for a slot that is
  // unknown or not taken: a caller bug, reported instead of corrupting the FIFO.
  [[nodiscard]] bool give_back(std::uint32_t slot) noexcept;

  [[nodiscard]] std::uint32_t target_of(std::uint32_t slot) const noexcept { return slot_target_[slot]; }
  [[nodiscard]] std::uint32_t slot_count() const noexcept {
    return static_cast<std::uint32_t>(slot_target_.size());
  }
  [[nodiscard]] std::uint32_t target_count() const noexcept {
    return static_cast<std::uint32_t>(depth_.size());
  }
  [[nodiscard]] std::uint32_t depth(std::uint32_t target) const noexcept { return depth_[target]; }
  // Slots of `target` currently taken (never more than its depth).
  [[nodiscard]] std::uint32_t taken(std::uint32_t target) const noexcept { return taken_[target]; }
  [[nodiscard]] std::uint32_t free_count() const noexcept { return free_count_; }

 private:
  SlotScheduler() = default;

  std::vector<std::uint32_t> slot_target_;
  std::vector<std::uint32_t> depth_;
  std::vector<std::uint32_t> taken_;
  std::vector<std::uint32_t> fifo_;  // ring buffer of free slot ids
  std::vector<std::uint8_t> is_free_;
  std::uint32_t head_{};
  std::uint32_t free_count_{};
};

}  // namespace iomark::workload
