// The --verify half of the worker's hot path: claiming blocks, stamping writes, checking
// reads. Allocation-free and noexcept like the rest of the loop (worker.hpp).
#include <cstring>

#include "iomark/agent/worker.hpp"
#include "iomark/workload/verify_block.hpp"

namespace iomark::agent {

bool Worker::claim_blocks(const workload::PlannedIo& io, SlotState& state) noexcept {
  state.block_count = 0;
  const auto& verify = options_.targets[io.target].verify;
  if (!verify) return true;
  const auto block_bytes = verify->block_bytes;
  const auto first = io.offset_bytes / block_bytes;
  const auto count = static_cast<std::uint32_t>((io.offset_bytes + io.size_bytes - 1) / block_bytes - first + 1);
  // The journal covers whole blocks; an I/O reaching into a partial last block is not judged.
  if (first + count > verify->map.block_count()) return true;
  if (!verify->map.claim(first, count)) return false;
  state.offset_bytes = io.offset_bytes;
  state.first_block = first;
  state.block_count = count;
  return true;
}

std::byte* Worker::stamp_write(const workload::PlannedIo& io, std::byte* data, std::uint64_t now_ns) noexcept {
  const auto& verify = *options_.targets[io.target].verify;
  std::byte* buffer = buffers_.slot(io.slot);
  // Patterns whose writes point into a shared source buffer are copied first: the stamp is
  // per write, and another slot may be writing from the same source bytes.
  if (data != buffer) std::memcpy(buffer, data, io.size_bytes);
  const auto& state = slots_[io.slot];
  for (std::uint32_t i = 0; i < state.block_count; ++i) {
    const auto block = state.first_block + i;
    workload::stamp_block({buffer + static_cast<std::size_t>(i) * verify.block_bytes, verify.block_bytes},
                          {verify.journal->target_id(), block * verify.block_bytes, verify.map.next_generation(block),
                           now_ns});
  }
  return buffer;
}

bool Worker::settle_blocks(SlotState& state, std::uint32_t slot, bool succeeded) noexcept {
  auto& verify = *options_.targets[state.target].verify;
  using Outcome = workload::VerifyMap::Outcome;
  if (state.op == engine::IoOp::write) {
    verify.map.release(state.first_block, state.block_count, succeeded ? Outcome::written : Outcome::write_failed);
    state.block_count = 0;
    return true;
  }
  auto& report = verify_reports_[state.target];
  bool good = true;
  const std::byte* buffer = buffers_.slot(slot);
  for (std::uint32_t i = 0; i < state.block_count; ++i) {
    const auto block = state.first_block + i;
    auto outcome = Outcome::read;
    if (!succeeded || !verify.map.judged(block)) {
      if (succeeded) ++report.blocks_not_judged;
    } else {
      ++report.blocks_checked;
      const workload::BlockExpectation expected{verify.journal->target_id(), block * verify.block_bytes,
                                                verify.map.generation(block)};
      if (auto finding = workload::check_block(
              {buffer + static_cast<std::size_t>(i) * verify.block_bytes, verify.block_bytes}, expected)) {
        report.add(*finding);
        outcome = Outcome::read_bad;
        good = false;
      }
    }
    verify.map.release(block, 1, outcome);
  }
  state.block_count = 0;
  return good;
}

void Worker::unclaim_blocks(SlotState& state) noexcept {
  if (state.block_count == 0) return;
  options_.targets[state.target].verify->map.release(state.first_block, state.block_count,
                                                     workload::VerifyMap::Outcome::read);
  state.block_count = 0;
}

}  // namespace iomark::agent
