#include "iomark/network/transfer_sequence.hpp"

namespace iomark::network {

Result<TransferSequence> TransferSequence::create(const access_specs::AccessSpec& spec, PairEnd end,
                                                  std::uint64_t seed) {
  auto table = workload::LineTable::create(spec);
  if (!table) return fail(table.error());
  return TransferSequence(std::move(*table), end, seed);
}

PlannedTransaction TransferSequence::next() noexcept {
  PlannedTransaction transaction;
  if (burst_left_ <= 0 || line_ == nullptr) {
    line_ = &table_.at_slot(static_cast<std::uint32_t>(worker_rng_.below(workload::kLineSlots)));
    burst_left_ = line_->spec.burst_transactions;
    transaction.delay_ms = line_->spec.delay_ms;
  }
  --burst_left_;
  const bool server_reads = target_rng_.below(100) < line_->spec.percent_reads;
  const bool receives = (end_ == PairEnd::server) == server_reads;
  transaction.request = {line_->spec.size_bytes, receives ? Transfer::receive : Transfer::send, server_reads};
  transaction.reply_bytes = line_->spec.reply_bytes;
  return transaction;
}

}  // namespace iomark::network
