// Which transfers a network target runs, decided as Dynamo decides them for disks
// (docs/iometer-reference.md#access-semantics): per burst a line drawn with the worker RNG, per
// transaction read or write with the target RNG, and a reply in the opposite direction when
// the line has one. A "read" is a receive and a "write" a send *as the server sees it*; the
// client, seeded alike, makes the same decisions and does the opposite (it sends what the
// server receives) but counts them under the server's direction, so both ends report the
// same reads and writes. Random %, alignment and region do not apply to a network target.
//
// Pure: no sockets, no clock. create() allocates; next() does not. Not thread-safe.
#pragma once

#include <cstdint>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"
#include "iomark/workload/iometer_lcg.hpp"
#include "iomark/workload/line_table.hpp"

namespace iomark::network {

enum class PairEnd : std::uint8_t { server, client };

// One direction of data as this end does it.
enum class Transfer : std::uint8_t { receive, send };

struct PlannedTransfer {
  std::uint32_t bytes{};
  Transfer action{Transfer::receive};
  bool counts_as_read{};  // the server's view: a read is what the server receives
};

struct PlannedTransaction {
  std::uint32_t delay_ms{};  // wait this long before the request (the start of a burst)
  PlannedTransfer request;
  std::uint32_t reply_bytes{};  // 0: no reply; else the reply goes the other way
  [[nodiscard]] PlannedTransfer reply() const noexcept {
    return {reply_bytes, request.action == Transfer::receive ? Transfer::send : Transfer::receive,
            !request.counts_as_read};
  }
};

class TransferSequence {
 public:
  // Errors as workload::LineTable::create (an Idle spec, a line of size 0, % of size < 100).
  [[nodiscard]] static Result<TransferSequence> create(const access_specs::AccessSpec& spec, PairEnd end,
                                                       std::uint64_t seed);

  [[nodiscard]] PlannedTransaction next() noexcept;
  // The largest request or reply: the buffer size.
  [[nodiscard]] std::uint32_t max_transfer_bytes() const noexcept { return table_.max_transfer_bytes(); }

 private:
  TransferSequence(workload::LineTable table, PairEnd end, std::uint64_t seed) noexcept
      : table_(std::move(table)), end_(end), worker_rng_(seed), target_rng_(seed) {}

  workload::LineTable table_;
  PairEnd end_;
  workload::IometerLcg worker_rng_;  // WRand: the line of each burst
  workload::IometerLcg target_rng_;  // TRand: read or write per transaction
  const workload::BurstLine* line_{nullptr};
  std::int64_t burst_left_{0};
};

}  // namespace iomark::network
