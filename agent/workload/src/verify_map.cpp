#include "iomark/workload/verify_map.hpp"

#include <atomic>

namespace iomark::workload {
namespace {

using Word = std::atomic_ref<std::uint32_t>;

std::uint32_t following(std::uint32_t word) noexcept {
  const std::uint32_t step = (word & VerifyMap::kUnknown) != 0 ? 2 : 1;
  const std::uint32_t next = ((word & VerifyMap::kGenerationMask) + step) & VerifyMap::kGenerationMask;
  return next == 0 ? 1 : next;
}

}  // namespace

bool VerifyMap::claim(std::uint64_t first, std::uint64_t count) noexcept {
  for (std::uint64_t i = 0; i < count; ++i) {
    Word word(words_[first + i]);
    std::uint32_t seen = word.load(std::memory_order_relaxed);
    for (;;) {
      if ((seen & kInFlight) != 0) {
        for (std::uint64_t j = 0; j < i; ++j) Word(words_[first + j]).fetch_and(~kInFlight, std::memory_order_release);
        return false;
      }
      // Acquire: the generation the previous holder released is the one we read.
      if (word.compare_exchange_weak(seen, seen | kInFlight, std::memory_order_acquire, std::memory_order_relaxed)) {
        break;
      }
    }
  }
  return true;
}

std::uint32_t VerifyMap::generation(std::uint64_t block) const noexcept {
  return Word(words_[block]).load(std::memory_order_relaxed) & kGenerationMask;
}

bool VerifyMap::judged(std::uint64_t block) const noexcept {
  const auto word = Word(words_[block]).load(std::memory_order_relaxed);
  return (word & kUnknown) == 0 && (word & kGenerationMask) != 0;
}

std::uint32_t VerifyMap::next_generation(std::uint64_t block) const noexcept {
  return following(Word(words_[block]).load(std::memory_order_relaxed));
}

void VerifyMap::release(std::uint64_t first, std::uint64_t count, Outcome outcome) noexcept {
  for (std::uint64_t i = 0; i < count; ++i) {
    Word word(words_[first + i]);
    // Only the claimer writes a claimed word, so a plain load-then-store is race-free.
    const std::uint32_t held = word.load(std::memory_order_relaxed);
    std::uint32_t released = held & ~kInFlight;
    if (outcome == Outcome::written) released = following(held);
    if (outcome == Outcome::write_failed || outcome == Outcome::read_bad) released |= kUnknown;
    word.store(released, std::memory_order_release);
  }
}

std::uint64_t VerifyMap::recover() noexcept {
  std::uint64_t recovered = 0;
  for (auto& raw : words_) {
    Word word(raw);
    const auto value = word.load(std::memory_order_relaxed);
    if ((value & kInFlight) == 0) continue;
    word.store((value & ~kInFlight) | kUnknown, std::memory_order_relaxed);
    ++recovered;
  }
  return recovered;
}

}  // namespace iomark::workload
