#include "iomark/workload/worker_workload.hpp"

#include <bit>
#include <cassert>
#include <chrono>
#include <string>

#include "iomark/workload/data_pattern.hpp"

namespace iomark::workload {
namespace {

Error in_target(const Error& error, std::size_t target) {
  return Error(error.code(), "target " + std::to_string(target + 1) + ": " + error.message()).in_field(error.field());
}

IoDirection opposite(IoDirection direction) noexcept {
  return direction == IoDirection::read ? IoDirection::write : IoDirection::read;
}

}  // namespace

Result<WorkerWorkload> WorkerWorkload::create(const access_specs::AccessSpec& spec, const WorkerSetup& setup) {
  auto table = LineTable::create(spec);
  if (!table) return fail(table.error());
  if (setup.targets.empty()) return fail(ErrorCode::invalid_argument, "a worker needs at least one target");
  if (!std::has_single_bit(setup.buffer_alignment_bytes)) {
    return fail(ErrorCode::invalid_argument,
                "buffer alignment " + std::to_string(setup.buffer_alignment_bytes) + " is not a power of two");
  }
  std::vector<std::uint32_t> depths;
  depths.reserve(setup.targets.size());
  for (const auto& target : setup.targets) depths.push_back(target.queue_depth);
  auto slots = SlotScheduler::create(depths);
  if (!slots) return fail(slots.error());

  WorkerWorkload workload(std::move(*table), std::move(*slots));
  const LineTable& lines = workload.table_;
  for (std::size_t t = 0; t < setup.targets.size(); ++t) {
    const TargetSetup& target = setup.targets[t];
    auto region = make_region(target.geometry, target.starting_sector, target.maximum_size_sectors);
    if (!region) return fail(in_target(region.error(), t));
    auto& alignments = workload.line_alignment_.emplace_back();
    for (const BurstLine& line : lines.lines()) {
      const Alignment alignment = Alignment::of(line.spec.align_bytes, target.geometry.sector_size_bytes);
      alignments.push_back(alignment);
      if (lines.slots_of(line.index) == 0) continue;
      for (const std::uint32_t size : {line.spec.size_bytes, line.spec.reply_bytes}) {
        if (size != 0 && !fits(size, alignment, *region)) {
          return fail(Error(ErrorCode::invalid_argument,
                            "target " + std::to_string(t + 1) + ": line " + std::to_string(line.index + 1) + ": a " +
                                std::to_string(size) + "-byte transfer aligned to " +
                                std::to_string(alignment.unit_bytes()) + " bytes does not fit the region [" +
                                std::to_string(region->start_bytes) + ", " + std::to_string(region->end_bytes) + ")")
                          .in_field("Maximum Disk Size"));
        }
      }
    }
    workload.targets_.push_back(TargetState{IometerLcg(target.seed), *region, region->start_bytes});
  }
  workload.slot_states_.resize(workload.slots_.slot_count());
  workload.worker_seed_ = setup.targets.front().seed;
  workload.worker_rng_ = IometerLcg(workload.worker_seed_);
  // Complemented so that fill bytes do not mirror WRand's line draws.
  workload.fill_rng_ = IometerLcg(~workload.worker_seed_);
  workload.pattern_ = setup.data_pattern;
  workload.buffer_alignment_bytes_ = setup.buffer_alignment_bytes;
  if (setup.data_pattern == access_specs::DataPattern::full_random) {
    workload.random_buffer_bytes_ = random_buffer_bytes(lines.max_transfer_bytes(), setup.buffer_alignment_bytes);
  }
  return workload;
}

Step WorkerWorkload::next_io(std::uint32_t slot, Nanoseconds now) noexcept {
  if (now < resume_at_) return Step{StepKind::wait, resume_at_, {}};
  SlotState& state = slot_states_[slot];
  assert(state.phase != Phase::request_in_flight && state.phase != Phase::reply_in_flight);
  switch (state.phase) {
    case Phase::idle:
      break;
    case Phase::request_ready:
    case Phase::request_in_flight:
      state.phase = Phase::request_in_flight;
      return Step{StepKind::issue, {}, place(slot, state, IoRole::request)};
    case Phase::reply_ready:
    case Phase::reply_in_flight:
      state.phase = Phase::reply_in_flight;
      return Step{StepKind::issue, {}, place(slot, state, IoRole::reply)};
  }

  // Dynamo decrements first, so a fresh worker (counter 0) and a burst of 0 both draw at once.
  if (!line_awaits_transaction_ && --remaining_in_burst_ <= 0) {
    const BurstLine& drawn = table_.at_slot(static_cast<std::uint32_t>(worker_rng_.below(kLineSlots)));
    burst_line_ = drawn.index;
    remaining_in_burst_ = drawn.spec.burst_transactions;
    if (drawn.spec.delay_ms != 0) {
      resume_at_ = now + std::chrono::milliseconds(drawn.spec.delay_ms);
      line_awaits_transaction_ = true;
      return Step{StepKind::wait, resume_at_, {}};
    }
  }
  line_awaits_transaction_ = false;

  const std::uint32_t target = slots_.target_of(slot);
  state.line = burst_line_;
  state.alignment = line_alignment_[target][burst_line_];
  state.request_direction = targets_[target].rng.below(100) < table_.lines()[burst_line_].spec.percent_reads
                                ? IoDirection::read
                                : IoDirection::write;
  state.phase = Phase::request_in_flight;
  return Step{StepKind::issue, {}, place(slot, state, IoRole::request)};
}

PlannedIo WorkerWorkload::place(std::uint32_t slot, SlotState& state, IoRole role) noexcept {
  const std::uint32_t target_index = slots_.target_of(slot);
  TargetState& target = targets_[target_index];
  const access_specs::AccessSpecLine& line = table_.lines()[state.line].spec;

  PlannedIo io;
  io.slot = slot;
  io.target = target_index;
  io.line = state.line;
  io.role = role;
  io.direction = role == IoRole::request ? state.request_direction : opposite(state.request_direction);
  io.size_bytes = role == IoRole::request ? line.size_bytes : line.reply_bytes;
  const bool random = target.rng.below(100) < line.percent_random;
  io.order = random ? AccessOrder::random : AccessOrder::sequential;
  const std::uint64_t candidate =
      random ? target.region.start_bytes + target.rng.below(target.region.length_bytes()) : target.next_sequential;
  io.offset_bytes = place_io(candidate, io.size_bytes, state.alignment, target.region);
  target.next_sequential = io.offset_bytes + io.size_bytes;
  state.last_offset = io.offset_bytes;

  if (io.direction == IoDirection::write) {
    switch (pattern_) {
      case access_specs::DataPattern::repeating_bytes:
        io.fill_byte = static_cast<std::byte>(fill_rng_.below(256));
        break;
      case access_specs::DataPattern::pseudo_random:
        break;
      case access_specs::DataPattern::full_random:
        io.data_offset_bytes =
            random_data_offset(worker_rng_, random_buffer_bytes_, io.size_bytes, buffer_alignment_bytes_);
        break;
    }
  }
  return io;
}

TransactionStatus WorkerWorkload::complete_io(std::uint32_t slot) noexcept {
  SlotState& state = slot_states_[slot];
  TransactionStatus status = TransactionStatus::complete;
  if (state.phase == Phase::request_in_flight && table_.lines()[state.line].spec.reply_bytes != 0) {
    state.phase = Phase::reply_ready;
    status = TransactionStatus::reply_pending;
  } else {
    state.phase = Phase::idle;
  }
  [[maybe_unused]] const bool returned = slots_.give_back(slot);
  assert(returned);
  return status;
}

void WorkerWorkload::retry_later(std::uint32_t slot) noexcept {
  SlotState& state = slot_states_[slot];
  state.phase = state.phase == Phase::reply_in_flight ? Phase::reply_ready : Phase::request_ready;
  targets_[slots_.target_of(slot)].next_sequential = state.last_offset;
  [[maybe_unused]] const bool returned = slots_.give_back(slot);
  assert(returned);
}

void WorkerWorkload::reset_sequential(std::uint32_t target) noexcept {
  targets_[target].next_sequential = targets_[target].region.start_bytes;
}

void WorkerWorkload::fill_pseudo_random_buffer(std::span<std::byte> buffer) noexcept {
  fill_pseudo_random(buffer, worker_rng_);
}

}  // namespace iomark::workload
