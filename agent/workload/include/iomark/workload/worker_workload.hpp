// What one worker issues next, decided exactly as Dynamo decides it
// (docs/iometer-reference.md#access-semantics).
//
// Pure computation: no I/O, no clock, no sleeping. The worker loop owns time, the engine and
// the buffers; it asks this class which I/O to issue on which slot and reports completions:
//
//   while (running) {
//     reap completions: for each, workload.complete_io(slot) (the slot returns to the FIFO);
//     slot = held_slot ? held_slot : workload.take_slot();   // none free: wait for completions
//     step = workload.next_io(*slot, now);
//     if (step.kind == StepKind::wait) { hold the slot; reap until step.resume_at; continue; }
//     issue step.io with the slot's buffer; if submission fails: workload.retry_later(*slot);
//   }
//
// create() allocates; the per-I/O members (take_slot, next_io, complete_io, retry_later) are
// O(1), allocation-free and noexcept. A copy is an independent generator in the same state.
// Not thread-safe: one worker thread owns an instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/workload/iometer_lcg.hpp"
#include "iomark/workload/line_table.hpp"
#include "iomark/workload/region.hpp"
#include "iomark/workload/slot_scheduler.hpp"

namespace iomark::workload {

// One target of the worker, in the order IOmeter lists them (the first one seeds the worker
// RNG). Starting sector and maximum size are in units of the target's sector size.
struct TargetSetup {
  TargetGeometry geometry;
  std::uint32_t queue_depth{1};
  std::uint64_t seed{};  // TRand's seed: the worker's fixed seed, or a per-run timer value
  std::uint64_t starting_sector{};
  std::uint64_t maximum_size_sectors{};  // 0 = to the end of the target
};

struct WorkerSetup {
  std::vector<TargetSetup> targets;
  access_specs::DataPattern data_pattern{access_specs::DataPattern::repeating_bytes};
  // Alignment of the caller's write buffers; full-random data offsets keep it. Power of two.
  std::uint32_t buffer_alignment_bytes{4096};
};

enum class IoDirection : std::uint8_t { read, write };
enum class AccessOrder : std::uint8_t { sequential, random };
enum class IoRole : std::uint8_t { request, reply };

// One I/O to issue.
struct PlannedIo {
  std::uint32_t slot{};
  std::uint32_t target{};  // index into WorkerSetup::targets
  std::uint32_t line{};    // 0-based access-spec line of the transaction
  IoDirection direction{IoDirection::read};
  AccessOrder order{AccessOrder::random};
  IoRole role{IoRole::request};
  std::uint64_t offset_bytes{};
  std::uint32_t size_bytes{};
  // Writes only, according to the data pattern:
  std::byte fill_byte{};              // repeating_bytes: fill the transfer with this byte first
  std::uint64_t data_offset_bytes{};  // full_random: take the data from here in the random buffer
  friend bool operator==(const PlannedIo&, const PlannedIo&) = default;
};

enum class StepKind : std::uint8_t {
  issue,  // `io` is ready to be issued
  wait,   // the burst's delay runs: issue nothing before `resume_at`, keep reaping
};

struct Step {
  StepKind kind{StepKind::issue};
  Nanoseconds resume_at{};  // wait only
  PlannedIo io;             // issue only
};

enum class TransactionStatus : std::uint8_t {
  reply_pending,  // the request completed; the slot's next I/O is the reply
  complete,       // the transaction is over; the slot's next I/O starts a new one
};

class WorkerWorkload {
 public:
  // Builds the line table, the per-target regions and RNGs and the slot FIFO. Errors
  // (invalid_argument, naming the line or the 1-based target): anything LineTable::create or
  // make_region refuses, a target with queue depth 0, a line whose request or reply does not
  // fit the region once aligned, a buffer alignment that is not a power of two.
  [[nodiscard]] static Result<WorkerWorkload> create(const access_specs::AccessSpec& spec, const WorkerSetup& setup);

  // The free slot at the head of the FIFO, or nullopt when all slots have an I/O in flight.
  [[nodiscard]] std::optional<std::uint32_t> take_slot() noexcept { return slots_.take(); }

  // The next I/O for a taken `slot` (which must not have an I/O in flight): the reply of its
  // transaction when one is pending, else the request of a new transaction. A new transaction
  // first decrements the worker's burst counter (shared by all targets); when the burst is
  // used up it draws the next line from the worker RNG and, if that line has a delay, returns
  // a wait until now + delay (the delay precedes every burst, the first included). While a
  // delay runs no I/O is issued, replies included; call again with the same slot once `now`
  // has reached resume_at. Draw order per transaction, as Dynamo: WRand(100) for a new burst,
  // TRand(100) read/write, then per I/O TRand(100) random/sequential, TRand(length) for a
  // random offset, and for full-random writes WRand(random buffer - size).
  //
  // Sequential I/O continues from the last I/O *issued* by this worker on the target (random
  // or sequential, request or reply): previous offset + previous size.
  //
  // Repeating-bytes fill values come from a stream of their own (Dynamo used the C library's
  // rand(), which never touched the offsets either). Deliberate differences from Dynamo, which
  // only matter when lines change between a request and its reply: the reply uses its own
  // transaction's line for alignment, and the wrap test uses the size of the I/O being placed
  // (Dynamo used the current burst's request size, so a reply larger than the request could run
  // past the end of the region).
  [[nodiscard]] Step next_io(std::uint32_t slot, Nanoseconds now) noexcept;

  // The I/O last issued on `slot` has completed (successfully or not: failures are counted by
  // the caller, the transaction moves on as in Dynamo). The slot returns to the FIFO tail.
  TransactionStatus complete_io(std::uint32_t slot) noexcept;

  // The I/O returned by next_io could not be issued. As in Dynamo, the slot goes to the FIFO
  // tail with its transaction unchanged (the same direction is retried with a new offset
  // decision) and the target's sequential pointer restarts at the refused offset.
  void retry_later(std::uint32_t slot) noexcept;

  // Restarts the target's sequential stream at the start of its region, as when Dynamo
  // (re)opens a target (test start, or each reconnect under Test Connection Rate).
  void reset_sequential(std::uint32_t target) noexcept;

  // Pseudo-random pattern only: fills the shared write buffer the way Dynamo does at test start
  // (WRand(255) per byte, from the worker RNG). Call once, before the first next_io, with a
  // buffer of IOmeter's data size (the largest transfer) to keep later line draws identical.
  void fill_pseudo_random_buffer(std::span<std::byte> buffer) noexcept;

  // Full-random pattern only: the size of the source buffer next_io's data offsets index, and
  // the seed to fill it with (fill_full_random): the first target's seed, as Dynamo.
  [[nodiscard]] std::size_t random_buffer_size() const noexcept { return random_buffer_bytes_; }
  [[nodiscard]] std::uint64_t worker_seed() const noexcept { return worker_seed_; }

  [[nodiscard]] const LineTable& lines() const noexcept { return table_; }
  [[nodiscard]] const SlotScheduler& slots() const noexcept { return slots_; }
  [[nodiscard]] const Region& region(std::uint32_t target) const noexcept { return targets_[target].region; }
  [[nodiscard]] std::uint32_t buffer_bytes() const noexcept { return table_.max_transfer_bytes(); }

 private:
  enum class Phase : std::uint8_t { idle, request_ready, request_in_flight, reply_ready, reply_in_flight };

  struct TargetState {
    IometerLcg rng;
    Region region;
    std::uint64_t next_sequential{};  // offset + size of the last I/O issued here
  };

  struct SlotState {
    std::uint32_t line{};  // index into table_.lines()
    Alignment alignment = Alignment::of(0, 1);
    IoDirection request_direction{IoDirection::read};
    Phase phase{Phase::idle};
    std::uint64_t last_offset{};
  };

  WorkerWorkload(LineTable table, SlotScheduler slots) : table_(std::move(table)), slots_(std::move(slots)) {}

  PlannedIo place(std::uint32_t slot, SlotState& state, IoRole role) noexcept;

  LineTable table_;
  SlotScheduler slots_;
  std::vector<TargetState> targets_;
  std::vector<SlotState> slot_states_;
  std::vector<std::vector<Alignment>> line_alignment_;  // [target][line]
  IometerLcg worker_rng_;
  IometerLcg fill_rng_;  // repeating-bytes values, kept apart so they never shift WRand
  std::uint64_t worker_seed_{};
  access_specs::DataPattern pattern_{};
  std::size_t random_buffer_bytes_{};
  std::uint32_t buffer_alignment_bytes_{};
  std::uint32_t burst_line_{};  // drawn before first use: the burst counter starts at 0
  std::int64_t remaining_in_burst_{};
  bool line_awaits_transaction_{};  // a drawn line whose delay ran but whose first transaction has not started
  Nanoseconds resume_at_{Nanoseconds::min()};
};

}  // namespace iomark::workload
