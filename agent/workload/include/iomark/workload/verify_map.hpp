// `--verify`: the expected generation of every verify block of one target, and which blocks
// have an I/O in flight. Shared by every worker driving the target (threads of one agent).
//
// One 32-bit word per block, in memory the caller owns (the journal maps it from its file,
// tests from a vector), changed only through std::atomic_ref:
//   bit 31  in flight: an I/O of some worker covers the block right now
//   bit 30  unknown: the last write failed or was in flight when the agent died; not judged
//           until the next acknowledged write (which then skips a generation)
//   0..29   generation of the last acknowledged write; 0 = never written in this journal
//
// Why the in-flight bit: two I/Os in flight on one block make "expected" ambiguous (which
// write lands last, does a read see the old or the new data?). A worker claims every block of
// an I/O before it submits and releases them once it has reaped the completion; when a block
// is taken it draws another offset instead (VerifyReport::busy_redraws). Reads claim blocks
// too, so a read never overlaps a write in flight. That is the only way --verify changes the
// access pattern: at most sum(QD) blocks are taken at once, so on a target of N blocks a draw
// collides with probability <= sum(QD) * blocks-per-I/O / N.
//
// Crash safety: a write's block is claimed (in flight, old generation) before submit, and gets
// its new generation only after the device acknowledged it. recover() after a crash turns the
// blocks left in flight into unknown ones: a crash loses at most the writes in flight.
//
// Lock-free: claim and release are compare-and-swap loops on the words; noexcept, no allocation.
#pragma once

#include <cstdint>
#include <span>

namespace iomark::workload {

class VerifyMap {
 public:
  static constexpr std::uint32_t kInFlight = 1U << 31;
  static constexpr std::uint32_t kUnknown = 1U << 30;
  static constexpr std::uint32_t kGenerationMask = kUnknown - 1;

  // `words`: one per block, 4-byte aligned, zero for a new journal. Not owned.
  explicit VerifyMap(std::span<std::uint32_t> words) noexcept : words_(words) {}

  [[nodiscard]] std::uint64_t block_count() const noexcept { return words_.size(); }

  // Marks blocks [first, first + count) in flight, all or none. False (nothing claimed) when
  // one of them already is. Precondition: the range lies inside the map.
  [[nodiscard]] bool claim(std::uint64_t first, std::uint64_t count) noexcept;

  // Generation state of a block; meaningful to the claimer while it holds the claim.
  [[nodiscard]] std::uint32_t generation(std::uint64_t block) const noexcept;
  // Whether a read of the block can be judged: written and acknowledged, and not unknown.
  [[nodiscard]] bool judged(std::uint64_t block) const noexcept;
  // The generation a write of the block stamps: one past the last, two past when unknown
  // (the lost write may have landed with the next one). Never 0.
  [[nodiscard]] std::uint32_t next_generation(std::uint64_t block) const noexcept;

  // Ends a claim: a read, a read that found the block bad (it becomes unknown, so one bad block
  // is reported once, not at every read), a write the device acknowledged (the block's
  // generation becomes next_generation), or a write that failed (the block becomes unknown).
  enum class Outcome : std::uint8_t { read, read_bad, written, write_failed };
  void release(std::uint64_t first, std::uint64_t count, Outcome outcome) noexcept;

  // After an unclean stop: blocks still marked in flight become unknown. Call before any claim.
  // Returns how many there were.
  std::uint64_t recover() noexcept;

 private:
  std::span<std::uint32_t> words_;
};

}  // namespace iomark::workload
