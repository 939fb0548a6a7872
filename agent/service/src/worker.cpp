#include "iomark/agent/worker.hpp"

#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "iomark/common/cpu_affinity.hpp"
#include "iomark/workload/data_pattern.hpp"

namespace iomark::agent {

namespace {

// How long the worker blocks in reap before it looks at its control flags again: bounds how
// late stop(), record_on() and snapshot() take effect when the target is slow.
constexpr std::uint64_t kControlPollNs = 50'000'000;
// An I/O still in flight this long after stop() is abandoned (the device is hung).
constexpr std::uint64_t kDrainLimitNs = 30'000'000'000;

Error failure_of(std::string_view what, int error_number, const std::string& worker) {
  return Error(ErrorCode::io_error, "worker \"" + worker + "\": " + std::string(what) + ": " + std::strerror(error_number));
}

}  // namespace

Result<std::unique_ptr<Worker>> Worker::create(WorkerOptions options, std::unique_ptr<engine::IoEngine> engine) {
  if (options.targets.empty()) {
    return fail(ErrorCode::invalid_argument, "worker \"" + options.name + "\" has no target");
  }
  if (!(std::isfinite(options.rate_iops) && options.rate_iops >= 0)) {
    return fail(ErrorCode::invalid_argument, "worker \"" + options.name + "\": the rate must be finite and >= 0, not " +
                                                 std::to_string(options.rate_iops));
  }
  std::uint32_t slot_count = 0;
  std::uint32_t largest_sector = 512;
  workload::WorkerSetup setup;
  // A reduction pattern fills each write from its pool; the workload then only draws
  // repeating-bytes fill values, from a stream of their own, so offsets stay as IOmeter's.
  setup.data_pattern =
      options.data_reduction ? access_specs::DataPattern::repeating_bytes : options.data_pattern;
  std::vector<int> fds;
  for (const auto& target : options.targets) {
    if (target.verify && target.setup.starting_sector * target.setup.geometry.sector_size_bytes %
                                 target.verify->block_bytes != 0) {
      return fail(ErrorCode::invalid_argument, "worker \"" + options.name + "\": " + target.name +
                                                   ": --verify needs a starting sector on a " +
                                                   std::to_string(target.verify->block_bytes) + "-byte block boundary");
    }
    slot_count += target.setup.queue_depth;
    largest_sector = std::max(largest_sector, target.setup.geometry.sector_size_bytes);
    setup.targets.push_back(target.setup);
    fds.push_back(target.fd);
  }
  const auto alignment = engine::buffer_alignment(largest_sector);
  if (!alignment) return fail(alignment.error());
  setup.buffer_alignment_bytes = static_cast<std::uint32_t>(*alignment);
  if (engine->queue_depth() < slot_count) {
    return fail(ErrorCode::invalid_argument, "worker \"" + options.name + "\": engine prepared for " +
                                                 std::to_string(engine->queue_depth()) + " outstanding I/Os, " +
                                                 std::to_string(slot_count) + " needed");
  }
  auto workload = workload::WorkerWorkload::create(options.spec, setup);
  if (!workload) return fail(workload.error());
  auto buffers = engine::BufferPool::create(slot_count, workload->buffer_bytes(), largest_sector);
  if (!buffers) return fail(buffers.error());
  if (auto registered = engine->register_targets(fds); !registered) return fail(registered.error());

  std::optional<workload::ReducedDataPool> reduced_pool;
  if (options.data_reduction) {
    auto pool = workload::ReducedDataPool::create(*options.data_reduction);
    if (!pool) return fail(pool.error());
    reduced_pool = std::move(*pool);
  }
  std::unique_ptr<Worker> worker(
      new Worker(std::move(options), std::move(engine), std::move(*workload), std::move(*buffers)));
  if (reduced_pool) {
    worker->reduced_pool_ = std::move(reduced_pool);
    for (std::uint32_t t = 0; t < worker->options_.targets.size(); ++t) {
      const auto& region = worker->workload_.region(t);
      worker->reduced_targets_.push_back(
          {region.start_bytes, region.length_bytes(), worker->options_.targets[t].content_key});
    }
  }
  // Writes of the pseudo- and full-random patterns point straight into one shared source
  // buffer, so only repeating bytes costs a fill per write.
  std::size_t pattern_bytes = 0;
  if (setup.data_pattern == access_specs::DataPattern::pseudo_random) {
    pattern_bytes = worker->workload_.buffer_bytes();
  } else if (setup.data_pattern == access_specs::DataPattern::full_random) {
    pattern_bytes = worker->workload_.random_buffer_size();
  }
  std::vector<engine::BufferRegion> regions{worker->buffers_.region()};
  if (pattern_bytes > 0) {
    const auto rounded = (pattern_bytes + *alignment - 1) / *alignment * *alignment;
    auto* memory = static_cast<std::byte*>(std::aligned_alloc(*alignment, rounded));
    if (memory == nullptr) return fail(ErrorCode::io_error, "cannot allocate the data pattern buffer");
    worker->pattern_buffer_ = {memory, std::free};
    const std::span<std::byte> data(memory, rounded);
    if (setup.data_pattern == access_specs::DataPattern::pseudo_random) {
      worker->workload_.fill_pseudo_random_buffer(data.first(pattern_bytes));
    } else {
      workload::fill_full_random(data, worker->workload_.worker_seed());
    }
    regions.push_back({memory, rounded});
  }
  // Registration is an optimisation (fixed buffers); an engine that cannot still works.
  (void)worker->engine_->register_buffers(regions);
  return worker;
}

Worker::Worker(WorkerOptions options, std::unique_ptr<engine::IoEngine> engine, workload::WorkerWorkload workload,
               engine::BufferPool buffers)
    : options_(std::move(options)),
      engine_(std::move(engine)),
      workload_(std::move(workload)),
      buffers_(std::move(buffers)),
      clock_(options_.cpu.has_value() && has_invariant_tsc()) {
  if (options_.rate_iops > 0) rate_period_ns_ = 1e9 / options_.rate_iops;
  const auto slot_count = buffers_.slot_count();
  slots_.resize(slot_count);
  batch_.reserve(slot_count);
  completions_.resize(slot_count);
  counters_.resize(options_.targets.size());
  const bool verifying = std::any_of(options_.targets.begin(), options_.targets.end(),
                                     [](const WorkerTarget& target) { return target.verify != nullptr; });
  if (verifying) {
    // Reserved now so that keeping a finding, and publishing the reports, never allocates.
    verify_reports_.resize(options_.targets.size());
    for (auto& report : verify_reports_) report.first_findings.reserve(VerifyReport::kFindingsKept);
  }
  published_ = {options_.name, Nanoseconds(0), counters_, verify_reports_};
  for (auto& report : published_.verify) report.first_findings.reserve(VerifyReport::kFindingsKept);
}

Worker::~Worker() { stop(); }

Result<void> Worker::start() {
  running_.store(true, std::memory_order_release);
  // The thread pins itself before its first I/O, so that every stamp of its clock is read on
  // the CPU it stays on.
  thread_ = std::thread([this] {
    const int error_number = options_.cpu ? pin_thread_to_cpu(::pthread_self(), *options_.cpu) : 0;
    pin_error_.store(error_number, std::memory_order_release);
    pin_error_.notify_one();
    if (error_number == 0) {
      run();
    } else {
      running_.store(false, std::memory_order_release);
    }
  });
  pin_error_.wait(kPinPending, std::memory_order_acquire);
  const int error_number = pin_error_.load(std::memory_order_acquire);
  if (error_number != 0) {
    stop();
    return fail(failure_of("cannot pin to CPU " + std::to_string(*options_.cpu), error_number, options_.name));
  }
  return {};
}

void Worker::record_on() noexcept { record_on_ns_.store(monotonic_now_ns(), std::memory_order_release); }

void Worker::record_off() noexcept { record_off_ns_.store(monotonic_now_ns(), std::memory_order_release); }

void Worker::stop() {
  stop_requested_.store(true, std::memory_order_release);
  if (thread_.joinable()) thread_.join();
}

void Worker::run() noexcept {
  // The time a reap returned is also the time the next round plans with: two stamps per round
  // (completion and submission), which matters where each is a clock_gettime.
  auto now = clock_.now_ns();
  if (rate_period_ns_ > 0) {
    // A schedule is kept to the nanosecond only if a sleep ends when asked, not up to the
    // default 50 us of timer slack later.
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    next_due_ns_ = static_cast<double>(now);
  }
  while (!stop_requested_.load(std::memory_order_acquire) && !failure_) {
    issue_ready_slots(now);
    publish_if_requested();
    if (failure_) break;
    std::uint64_t wait_ns = kControlPollNs;
    if (held_slot_) wait_ns = std::min(wait_ns, resume_at_ns_ > now ? resume_at_ns_ - now : 0);
    // An I/O due now waits for a slot, so only one due later shortens the wait.
    if (rate_period_ns_ > 0 && next_due_ns_ > static_cast<double>(now)) {
      wait_ns = std::min(wait_ns, static_cast<std::uint64_t>(std::ceil(next_due_ns_ - static_cast<double>(now))));
    }
    const bool idle = engine_->in_flight() == 0;
    if (idle && blocked_by_other_workers_) {
      // --verify: every block this worker drew is in flight in another worker; draw again soon.
      std::this_thread::yield();
      now = clock_.now_ns();
      continue;
    }
    if (idle) {
      // Nothing to reap: only a burst delay or the rate's schedule leaves every slot idle.
      // Sleep through it.
      const timespec pause{0, static_cast<long>(wait_ns)};
      ::nanosleep(&pause, nullptr);
      now = clock_.now_ns();
      continue;
    }
    const auto reaped =
        engine_->reap(completions_, 1, Nanoseconds(static_cast<std::int64_t>(wait_ns)));
    if (reaped.error != 0) {
      failure_ = failure_of(std::string(engine_->name()) + " reap failed", reaped.error, options_.name);
      break;
    }
    now = clock_.now_ns();
    for (std::size_t i = 0; i < reaped.count; ++i) complete(completions_[i], now);
  }
  drain();
  if (window_end_ns_ == 0) window_end_ns_ = record_off_ns_.load(std::memory_order_acquire);
  publish_if_requested();
  running_.store(false, std::memory_order_release);
}

void Worker::issue_ready_slots(std::uint64_t now_ns) noexcept {
  const auto record_on = record_on_ns_.load(std::memory_order_acquire);
  const bool recording = record_on != 0 && record_on <= now_ns && record_off_ns_.load(std::memory_order_acquire) == 0;
  if (record_on != 0 && window_start_ns_ == 0) window_start_ns_ = record_on;
  batch_.clear();
  blocked_by_other_workers_ = false;
  std::uint32_t redraws = 0;
  const bool scheduled = rate_period_ns_ > 0;
  for (;;) {
    if (held_slot_ && now_ns < resume_at_ns_) break;
    if (scheduled && next_due_ns_ > static_cast<double>(now_ns)) break;
    const bool after_delay = held_slot_.has_value();
    const auto slot = held_slot_ ? held_slot_ : workload_.take_slot();
    if (!slot) break;
    const auto step = workload_.next_io(*slot, Nanoseconds(static_cast<std::int64_t>(now_ns)));
    if (step.kind == workload::StepKind::wait) {
      held_slot_ = slot;
      resume_at_ns_ = static_cast<std::uint64_t>(step.resume_at.count());
      break;
    }
    held_slot_.reset();
    const auto& io = step.io;
    auto& state = slots_[*slot];
    if (!claim_blocks(io, state)) {
      // Another I/O in flight covers one of its blocks: the slot draws another offset later.
      workload_.retry_later(*slot);
      ++verify_reports_[io.target].busy_redraws;
      if (++redraws >= buffers_.slot_count()) {
        blocked_by_other_workers_ = true;
        break;
      }
      continue;
    }
    if (scheduled) {
      // A burst delay pauses the schedule: the I/Os it held back are not owed afterwards.
      if (after_delay) next_due_ns_ = std::max(next_due_ns_, static_cast<double>(resume_at_ns_));
      state.scheduled_ns = static_cast<std::uint64_t>(next_due_ns_);
      next_due_ns_ += rate_period_ns_;
    }
    state.target = io.target;
    state.size_bytes = io.size_bytes;
    state.op = io.direction == workload::IoDirection::read ? engine::IoOp::read : engine::IoOp::write;
    state.counted = recording;
    if (io.role == workload::IoRole::request) {
      state.transaction_started_ns = now_ns;
      state.transaction_counted = recording;
    }
    std::byte* buffer = state.op == engine::IoOp::write ? write_source(io) : buffers_.slot(*slot);
    if (state.block_count != 0 && state.op == engine::IoOp::write) buffer = stamp_write(io, buffer, now_ns);
    batch_.push_back({*slot, io.target, state.op, io.offset_bytes, io.size_bytes, buffer});
  }
  if (batch_.empty()) return;
  // Stamped after the planning, right before the system call, as Dynamo and fio stamp: the
  // latency is the I/O's, not the worker's own bookkeeping.
  const auto issued_at = clock_.now_ns();
  for (const auto& request : batch_) slots_[request.tag].issued_ns = issued_at;
  const auto submitted = engine_->submit(batch_);
  for (std::size_t i = submitted.accepted; i < batch_.size(); ++i) {
    unclaim_blocks(slots_[batch_[i].tag]);
    workload_.retry_later(static_cast<std::uint32_t>(batch_[i].tag));
  }
  if (submitted.status == engine::SubmitStatus::failed) {
    failure_ = failure_of(std::string(engine_->name()) + " submit failed", submitted.error, options_.name);
  }
}

std::byte* Worker::write_source(const workload::PlannedIo& io) noexcept {
  if (reduced_pool_) {
    reduced_pool_->fill(buffers_.slot_span(io.slot).first(io.size_bytes), io.offset_bytes, reduced_targets_[io.target]);
    return buffers_.slot(io.slot);
  }
  switch (options_.data_pattern) {
    case access_specs::DataPattern::repeating_bytes:
      workload::fill_repeating(buffers_.slot_span(io.slot).first(io.size_bytes), io.fill_byte);
      return buffers_.slot(io.slot);
    case access_specs::DataPattern::pseudo_random:
      return pattern_buffer_.get();
    case access_specs::DataPattern::full_random:
      return pattern_buffer_.get() + io.data_offset_bytes;
  }
  return buffers_.slot(io.slot);
}

void Worker::complete(const engine::IoCompletion& completion, std::uint64_t now_ns) noexcept {
  const auto slot = static_cast<std::uint32_t>(completion.tag);
  auto& state = slots_[slot];
  // A short transfer is as much a failure as an error code: the bytes asked for did not move.
  const bool transferred = completion.result == static_cast<std::int64_t>(state.size_bytes);
  const bool verified = state.block_count == 0 || settle_blocks(state, slot, transferred);
  const auto record_off = record_off_ns_.load(std::memory_order_acquire);
  const bool before_record_off = record_off == 0 || now_ns <= record_off;
  const bool counts = state.counted && before_record_off;
  if (counts) {
    auto& counters = counters_[state.target];
    // Under a schedule an I/O's latency runs from when it was due: a device that stalls keeps
    // the next I/Os waiting for a slot, and their latency must show it (docs/characterize.md).
    const auto started_ns = rate_period_ns_ > 0 ? std::min(state.scheduled_ns, state.issued_ns) : state.issued_ns;
    const auto latency_ns = now_ns - started_ns;
    // A read that returned wrong data failed too (--verify).
    const bool succeeded = transferred && verified;
    if (succeeded && rate_period_ns_ > 0) {
      counters.service.add(now_ns - state.issued_ns);
      counters.issue_lag.add(state.issued_ns - started_ns);
    }
    if (state.op == engine::IoOp::read) {
      if (succeeded) counters.record_read(state.size_bytes, latency_ns);
      else ++counters.read_errors;
    } else {
      if (succeeded) counters.record_write(state.size_bytes, latency_ns);
      else ++counters.write_errors;
    }
  } else if (!state.counted && window_start_ns_ != 0 && before_record_off) {
    // IOmeter starts the window once the last I/O issued before recording has completed.
    window_start_ns_ = std::max(window_start_ns_, now_ns);
  }
  const bool transaction_counted = state.transaction_counted && before_record_off;
  const auto transaction_started = state.transaction_started_ns;
  const auto target = state.target;
  if (workload_.complete_io(slot) == workload::TransactionStatus::complete && transaction_counted) {
    counters_[target].transactions.add(now_ns - transaction_started);
  }
}

void Worker::publish_if_requested() noexcept {
  // Taking the request before copying tells a snapshot() that gave up whether a copy is under
  // way; the plain load first keeps the hot loop free of a read-modify-write.
  if (!snapshot_requested_.load(std::memory_order_relaxed) ||
      !snapshot_requested_.exchange(false, std::memory_order_acquire)) {
    return;
  }
  const auto end = window_end_ns_ != 0 ? window_end_ns_ : [&] {
    const auto record_off = record_off_ns_.load(std::memory_order_acquire);
    return record_off != 0 ? record_off : monotonic_now_ns();
  }();
  published_.window = Nanoseconds(
      window_start_ns_ != 0 && end > window_start_ns_ ? static_cast<std::int64_t>(end - window_start_ns_) : 0);
  std::copy(counters_.begin(), counters_.end(), published_.targets.begin());
  // Element-wise copy into vectors reserved at construction: no allocation on this thread.
  for (std::size_t t = 0; t < verify_reports_.size(); ++t) published_.verify[t] = verify_reports_[t];
  snapshot_sequence_.fetch_add(1, std::memory_order_release);
}

void Worker::drain() noexcept {
  const auto deadline = monotonic_now_ns() + kDrainLimitNs;
  while (engine_->in_flight() > 0 && monotonic_now_ns() < deadline) {
    const auto reaped = engine_->reap(completions_, 1, Nanoseconds(static_cast<std::int64_t>(kControlPollNs)));
    if (reaped.error != 0) {
      if (!failure_) failure_ = failure_of(std::string(engine_->name()) + " reap failed", reaped.error, options_.name);
      return;
    }
    const auto completed_at = clock_.now_ns();
    for (std::size_t i = 0; i < reaped.count; ++i) complete(completions_[i], completed_at);
  }
  if (engine_->in_flight() > 0 && !failure_) {
    failure_ = Error(ErrorCode::io_error, "worker \"" + options_.name + "\": " +
                                              std::to_string(engine_->in_flight()) +
                                              " I/Os still in flight 30 s after stop; the target is not responding");
  }
}

WorkerResults Worker::snapshot() {
  std::lock_guard lock(snapshot_mutex_);
  if (running_.load(std::memory_order_acquire)) {
    const auto before = snapshot_sequence_.load(std::memory_order_acquire);
    const auto published = [&] { return snapshot_sequence_.load(std::memory_order_acquire) != before; };
    snapshot_requested_.store(true, std::memory_order_release);
    const auto deadline = monotonic_now_ns() + 1'000'000'000ULL;
    while (!published() && running_.load(std::memory_order_acquire) && monotonic_now_ns() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    // Giving up on a thread stuck in an I/O call: withdraw the request, or the thread would
    // write published_ later while it is being copied below. If the thread has already
    // taken it, its copy is under way and finishes without waiting for anything.
    if (!published() && !snapshot_requested_.exchange(false, std::memory_order_acq_rel)) {
      while (!published()) std::this_thread::yield();
    }
    if (published()) return published_;
  }
  // The thread is gone: everything it wrote happened before running_ turned false.
  if (!running_.load(std::memory_order_acquire)) return results();
  return published_;
}

WorkerResults Worker::results() const {
  const auto end = window_end_ns_;
  const auto window = window_start_ns_ != 0 && end > window_start_ns_ ? end - window_start_ns_ : 0;
  return {options_.name, Nanoseconds(static_cast<std::int64_t>(window)), counters_, verify_reports_};
}

std::optional<Error> Worker::failure() const {
  if (running_.load(std::memory_order_acquire)) return std::nullopt;
  return failure_;
}

}  // namespace iomark::agent
