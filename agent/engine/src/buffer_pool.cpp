#include "iomark/engine/buffer_pool.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace iomark::engine {
namespace {

bool is_power_of_two(std::uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

void repeat_into(std::span<std::byte> target, std::span<const std::byte> pattern) noexcept {
  if (pattern.empty()) {
    std::memset(target.data(), 0, target.size());
    return;
  }
  // Copy the pattern once, then double the filled prefix: log2(size) memcpy calls.
  std::size_t filled = pattern.size() < target.size() ? pattern.size() : target.size();
  std::memcpy(target.data(), pattern.data(), filled);
  while (filled < target.size()) {
    const std::size_t chunk = filled < target.size() - filled ? filled : target.size() - filled;
    std::memcpy(target.data() + filled, target.data(), chunk);
    filled += chunk;
  }
}

}  // namespace

Result<std::size_t> buffer_alignment(std::uint32_t logical_block_size) {
  if (!is_power_of_two(logical_block_size)) {
    return fail(
        Error(ErrorCode::invalid_argument,
              "logical block size " + std::to_string(logical_block_size) + " is not a power of two")
            .in_field("logical_block_size"));
  }
  return logical_block_size > kMinBufferAlignment ? std::size_t{logical_block_size}
                                                  : kMinBufferAlignment;
}

void BufferPool::Free::operator()(std::byte* memory) const noexcept { std::free(memory); }

Result<BufferPool> BufferPool::create(std::size_t slot_count, std::size_t slot_bytes,
                                      std::uint32_t logical_block_size) {
  auto alignment = buffer_alignment(logical_block_size);
  if (!alignment) return tl::unexpected(alignment.error());
  if (slot_count == 0 || slot_bytes == 0) {
    return fail(ErrorCode::invalid_argument, "a buffer pool needs at least one slot of one byte");
  }
  const std::size_t align = *alignment;
  if (slot_bytes > std::numeric_limits<std::size_t>::max() - align) {
    return fail(ErrorCode::invalid_argument, "buffer slot size too large");
  }
  const std::size_t stride = (slot_bytes + align - 1) / align * align;
  if (slot_count > std::numeric_limits<std::size_t>::max() / stride) {
    return fail(ErrorCode::invalid_argument, "buffer pool size overflows");
  }
  const std::size_t total = slot_count * stride;
  void* memory = nullptr;
  if (const int rc = ::posix_memalign(&memory, align, total); rc != 0) {
    return fail(ErrorCode::io_error, "cannot allocate " + std::to_string(total) +
                                         " bytes of I/O buffers: " + std::strerror(rc));
  }
  std::memset(memory, 0, total);
  return BufferPool(std::unique_ptr<std::byte, Free>(static_cast<std::byte*>(memory)), slot_count,
                    stride, align);
}

void BufferPool::fill(std::span<const std::byte> pattern) noexcept {
  for (std::size_t i = 0; i < slot_count_; ++i) fill_slot(i, pattern);
}

void BufferPool::fill_slot(std::size_t index, std::span<const std::byte> pattern) noexcept {
  repeat_into(slot_span(index), pattern);
}

}  // namespace iomark::engine
