// Aligned I/O buffers: one slot per outstanding I/O, in one contiguous allocation so that a
// single BufferRegion covers them all (io_uring registers it once as a fixed buffer).
//
// Slots are aligned to buffer_alignment(logical block size) = max(4096, block size), which
// satisfies O_DIRECT on every device and keeps buffers page-aligned (fixing IOmeter's 4-byte
// aligned random buffers, docs/iometer-reference.md#fix-random-buffer-alignment). Not thread-safe;
// the worker owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "iomark/common/result.hpp"
#include "iomark/engine/io_engine.hpp"

namespace iomark::engine {

inline constexpr std::size_t kMinBufferAlignment = 4096;

// max(4096, logical_block_size). The block size must be a power of two (512, 4096, ...);
// anything else is ErrorCode::invalid_argument.
[[nodiscard]] Result<std::size_t> buffer_alignment(std::uint32_t logical_block_size);

class BufferPool {
 public:
  // slot_count slots of at least slot_bytes each (rounded up to the alignment), zeroed.
  // Zero slots or zero bytes, a bad block size or an allocation failure is an error.
  [[nodiscard]] static Result<BufferPool> create(std::size_t slot_count, std::size_t slot_bytes,
                                                 std::uint32_t logical_block_size);

  [[nodiscard]] std::size_t slot_count() const noexcept { return slot_count_; }
  // Distance between slots and the usable size of each: slot_bytes rounded up to alignment.
  [[nodiscard]] std::size_t slot_stride() const noexcept { return stride_; }
  [[nodiscard]] std::size_t alignment() const noexcept { return alignment_; }

  // Slot `index` (< slot_count()); its address is a multiple of alignment().
  [[nodiscard]] std::byte* slot(std::size_t index) const noexcept {
    return memory_.get() + index * stride_;
  }
  [[nodiscard]] std::span<std::byte> slot_span(std::size_t index) const noexcept {
    return {slot(index), stride_};
  }
  // The whole pool, for IoEngine::register_buffers.
  [[nodiscard]] BufferRegion region() const noexcept {
    return {memory_.get(), slot_count_ * stride_};
  }

  // Repeats `pattern` from the start of every slot to its end (an empty pattern zeroes).
  void fill(std::span<const std::byte> pattern) noexcept;
  void fill_slot(std::size_t index, std::span<const std::byte> pattern) noexcept;

 private:
  struct Free {
    void operator()(std::byte* memory) const noexcept;
  };
  BufferPool(std::unique_ptr<std::byte, Free> memory, std::size_t slot_count, std::size_t stride,
             std::size_t alignment) noexcept
      : memory_(std::move(memory)),
        slot_count_(slot_count),
        stride_(stride),
        alignment_(alignment) {}

  std::unique_ptr<std::byte, Free> memory_;
  std::size_t slot_count_{};
  std::size_t stride_{};
  std::size_t alignment_{};
};

}  // namespace iomark::engine
