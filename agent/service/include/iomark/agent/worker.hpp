// A worker: one pinned thread driving its targets through one engine, following one access
// specification (architecture.md, "The engine contract";
// docs/iometer-reference.md#access-semantics).
//
// Life cycle, from the thread that owns the Worker:
//   create() -> start() [ramp-up: I/O runs, nothing is counted] -> record_on() -> ...
//   -> record_off() -> stop() -> results()
// snapshot() may be called from any thread at any time for live figures.
//
// Counting follows IOmeter: an I/O counts when it was issued after record_on() and completed
// before record_off(); the window starts at record_on(), moved later to the completion of the
// last I/O issued before it, and ends at record_off().
//
// The hot path (the worker thread) allocates nothing, takes no lock and throws nothing: the
// engine, buffers and counters are prepared by create(); other threads talk to it through
// atomics only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/io_clock.hpp"
#include "iomark/common/io_counters.hpp"
#include "iomark/common/result.hpp"
#include "iomark/common/verify_report.hpp"
#include "iomark/agent/verified_target.hpp"
#include "iomark/engine/buffer_pool.hpp"
#include "iomark/engine/io_engine.hpp"
#include "iomark/workload/reduced_data.hpp"
#include "iomark/workload/worker_workload.hpp"

namespace iomark::agent {

struct WorkerTarget {
  std::string name;  // for results: the path the user named
  int fd{-1};        // opened by the caller, kept open until the worker is destroyed
  workload::TargetSetup setup;
  // The reduction patterns' content family (workload::ReducedTarget::content_key).
  std::uint64_t content_key{};
  // --verify: the target's shared journal state; null when this run does not verify. Every
  // write is then stamped block by block and every read checked (verify_block.hpp).
  std::shared_ptr<VerifiedTarget> verify{};
};

struct WorkerOptions {
  std::string name;
  std::optional<std::uint32_t> cpu;  // pin the thread to this CPU; nullopt = not pinned
  access_specs::AccessSpec spec;
  access_specs::DataPattern data_pattern{access_specs::DataPattern::repeating_bytes};
  // Set: writes carry this reduction pattern instead of data_pattern.
  std::optional<access_specs::DataReduction> data_reduction;
  std::vector<WorkerTarget> targets;
  // Open-loop rate control (docs/characterize.md#rate-control): above 0, I/Os are issued on a
  // schedule of this many per second, whatever the completions do, and reads, writes and the
  // histogram time each one from its scheduled moment; WorkerIoCounters::service and
  // issue_lag hold the rest. 0: each completion issues the next I/O, as IOmeter does.
  double rate_iops{};
};

struct WorkerResults {
  std::string name;
  Nanoseconds window{};                 // recording window so far (live) or in total
  std::vector<WorkerIoCounters> targets;  // in WorkerOptions::targets order
  // --verify findings since start() (ramp-up included: corruption is never discounted), in
  // WorkerOptions::targets order; empty when the run does not verify.
  std::vector<VerifyReport> verify{};
};

class Worker {
 public:
  // Builds the workload, the buffers and the per-target counters. `engine` must be prepared
  // with a queue depth of at least the sum of the targets' queue depths; create() registers
  // the targets and buffers with it.
  [[nodiscard]] static Result<std::unique_ptr<Worker>> create(WorkerOptions options,
                                                              std::unique_ptr<engine::IoEngine> engine);
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  ~Worker();  // stops and joins

  // Starts the thread; I/O begins at once (ramp-up). Fails if pinning to the CPU fails.
  [[nodiscard]] Result<void> start();
  void record_on() noexcept;
  void record_off() noexcept;
  // Stops issuing, waits for I/O in flight to complete, joins the thread. Idempotent.
  void stop();

  // Live counters of the current window, copied by the worker thread between two I/O
  // batches (waits at most ~1 s for it, then returns the last copy; the final counters once
  // the thread is gone).
  [[nodiscard]] WorkerResults snapshot();
  // Final counters; call after stop().
  [[nodiscard]] WorkerResults results() const;
  // Set when the engine itself failed (not an I/O error, which is counted): the thread
  // stopped and this says why.
  [[nodiscard]] std::optional<Error> failure() const;

  [[nodiscard]] const std::string& name() const noexcept { return options_.name; }
  [[nodiscard]] std::string_view engine_name() const noexcept { return engine_->name(); }

 private:
  struct SlotState {
    std::uint64_t issued_ns{};
    std::uint64_t scheduled_ns{};  // rate control: when the schedule said to issue it
    std::uint64_t transaction_started_ns{};
    std::uint32_t target{};
    std::uint32_t size_bytes{};
    engine::IoOp op{engine::IoOp::read};
    bool counted{};              // issued while recording
    bool transaction_counted{};  // its transaction's request was issued while recording
    std::uint64_t offset_bytes{};
    std::uint64_t first_block{};  // --verify: the blocks claimed in the target's VerifyMap
    std::uint32_t block_count{};  // 0: not verifying
  };

  Worker(WorkerOptions options, std::unique_ptr<engine::IoEngine> engine, workload::WorkerWorkload workload,
         engine::BufferPool buffers);

  void run() noexcept;
  void issue_ready_slots(std::uint64_t now_ns) noexcept;
  void complete(const engine::IoCompletion& completion, std::uint64_t now_ns) noexcept;
  void publish_if_requested() noexcept;
  void drain() noexcept;
  [[nodiscard]] std::byte* write_source(const workload::PlannedIo& io) noexcept;
  // --verify (worker_verify.cpp). Claims the I/O's blocks; false when one is in flight.
  [[nodiscard]] bool claim_blocks(const workload::PlannedIo& io, SlotState& state) noexcept;
  // Copies the write's data into the slot buffer if needed and stamps every block.
  [[nodiscard]] std::byte* stamp_write(const workload::PlannedIo& io, std::byte* data, std::uint64_t now_ns) noexcept;
  // At completion: checks a read's blocks, then releases the claim. False when a read found
  // a bad block (the read then counts as a read error).
  [[nodiscard]] bool settle_blocks(SlotState& state, std::uint32_t slot, bool succeeded) noexcept;
  // An I/O that was claimed but not submitted.
  void unclaim_blocks(SlotState& state) noexcept;

  WorkerOptions options_;
  std::unique_ptr<engine::IoEngine> engine_;
  workload::WorkerWorkload workload_;
  engine::BufferPool buffers_;
  std::unique_ptr<std::byte, void (*)(void*)> pattern_buffer_{nullptr, nullptr};  // pseudo/full random data
  std::optional<workload::ReducedDataPool> reduced_pool_;  // reduction patterns only
  std::vector<workload::ReducedTarget> reduced_targets_;   // per target, with reduced_pool_
  std::vector<SlotState> slots_;
  std::vector<engine::IoRequest> batch_;
  std::vector<engine::IoCompletion> completions_;
  std::vector<WorkerIoCounters> counters_;
  std::vector<VerifyReport> verify_reports_;  // empty unless verifying
  bool blocked_by_other_workers_{};  // --verify: the last issue round found only blocks in flight elsewhere
  std::optional<std::uint32_t> held_slot_;  // taken, waiting for a burst delay to end
  std::uint64_t resume_at_ns_{};
  // Rate control: the period between two scheduled issues, and when the next one is due
  // (fractional nanoseconds, so that a rate like 3 per microsecond keeps its average). 0: no
  // schedule.
  double rate_period_ns_{};
  double next_due_ns_{};
  std::uint64_t window_start_ns_{};  // moved past pre-recording completions
  std::uint64_t window_end_ns_{};
  // The worker thread's stamps: through the TSC when the worker is pinned to one CPU.
  IoClock clock_;
  static constexpr int kPinPending = -1;
  std::atomic<int> pin_error_{kPinPending};  // the errno of pinning the thread, once it has tried

  std::atomic<std::uint64_t> record_on_ns_{0};   // 0 = not yet recording
  std::atomic<std::uint64_t> record_off_ns_{0};  // 0 = still recording
  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> snapshot_requested_{false};
  std::atomic<std::uint64_t> snapshot_sequence_{0};
  std::atomic<bool> running_{false};

  mutable std::mutex snapshot_mutex_;  // among snapshot() callers only, never the worker thread
  WorkerResults published_;
  std::optional<Error> failure_;  // written by the thread before running_ turns false
  std::thread thread_;
};

}  // namespace iomark::agent
