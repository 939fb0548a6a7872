#include "iomark/legacy/raw_results.hpp"

#include <cmath>
#include <limits>

#include "byte_image.hpp"

namespace iomark::legacy {

namespace raw = raw_result_layout;
namespace worker = worker_results_layout;
namespace manager = manager_results_layout;

namespace {

constexpr std::size_t kCpuValues = 6;
constexpr std::size_t kNicValues = 3;

constexpr std::size_t raw_offset(std::size_t index) {
  return kDataUnionOffset + worker::kTargetResults + index * raw::kBytes;
}

// The uint64 members of Raw_Result, in the order of the struct.
constexpr std::array<std::pair<std::size_t, std::uint64_t RawResult::*>, 14> kU64Members{{
    {raw::kBytesRead, &RawResult::bytes_read},
    {raw::kBytesWritten, &RawResult::bytes_written},
    {raw::kReadCount, &RawResult::read_count},
    {raw::kWriteCount, &RawResult::write_count},
    {raw::kTransactionCount, &RawResult::transaction_count},
    {raw::kConnectionCount, &RawResult::connection_count},
    {raw::kMaxRawReadLatency, &RawResult::max_raw_read_latency},
    {raw::kReadLatencySum, &RawResult::read_latency_sum},
    {raw::kMaxRawWriteLatency, &RawResult::max_raw_write_latency},
    {raw::kWriteLatencySum, &RawResult::write_latency_sum},
    {raw::kMaxRawTransactionLatency, &RawResult::max_raw_transaction_latency},
    {raw::kMaxRawConnectionLatency, &RawResult::max_raw_connection_latency},
    {raw::kTransactionLatencySum, &RawResult::transaction_latency_sum},
    {raw::kConnectionLatencySum, &RawResult::connection_latency_sum},
}};

constexpr std::array<double CpuResult::*, kCpuValues> kCpuMembers{
    &CpuResult::total_percent,     &CpuResult::user_percent,      &CpuResult::privileged_percent,
    &CpuResult::dpc_percent,       &CpuResult::interrupt_percent, &CpuResult::interrupts_per_second};
constexpr std::array<double NicResult::*, kNicValues> kNicMembers{
    &NicResult::packets_per_second, &NicResult::out_errors_per_second, &NicResult::in_errors_per_second};

Result<std::size_t> checked_count(std::span<const std::byte> block, std::size_t offset, std::size_t max,
                                  std::string_view field) {
  const auto count = image::get_i32(block, offset);
  if (count < 0 || static_cast<std::size_t>(count) > max) {
    return fail(Error(ErrorCode::parse_error,
                      "count " + std::to_string(count) + " is outside 0.." + std::to_string(max))
                    .in_field(std::string(field)));
  }
  return static_cast<std::size_t>(count);
}

// Finite only: Dynamo's deltas can dip below zero (a counter read on another CPU a tick
// apart); the consumer clamps.
Result<double> checked_finite(std::span<const std::byte> block, std::size_t offset, const std::string& field) {
  const double value = image::get_f64(block, offset);
  if (!std::isfinite(value)) {
    return fail(Error(ErrorCode::parse_error, "is not a finite number").in_field(field));
  }
  return value;
}

// A double[rows][N] table whose rows are `Row`s with the members `columns`, in wire order.
template <typename Row, std::size_t N>
void put_table(std::span<std::byte> block, std::size_t offset, const std::vector<Row>& rows,
               const std::array<double Row::*, N>& columns) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < N; ++c) image::put_f64(block, offset + 8 * (r * N + c), rows[r].*columns[c]);
  }
}

template <typename Row, std::size_t N>
Result<std::vector<Row>> get_table(std::span<const std::byte> block, std::size_t offset, std::size_t count,
                                   const std::array<double Row::*, N>& columns, std::string_view field) {
  std::vector<Row> rows(count);
  for (std::size_t r = 0; r < count; ++r) {
    for (std::size_t c = 0; c < N; ++c) {
      auto value = checked_finite(block, offset + 8 * (r * N + c),
                                  std::string(field) + "[" + std::to_string(r) + "][" + std::to_string(c) + "]");
      if (!value) return fail(value.error());
      rows[r].*columns[c] = *value;
    }
  }
  return rows;
}

}  // namespace

Result<DataBlock> encode_worker_results(const WorkerResults& results) {
  if (results.targets.size() > kMaxTargets) {
    return fail(Error(ErrorCode::invalid_argument, std::to_string(results.targets.size()) +
                                                       " target results, at most " + std::to_string(kMaxTargets) +
                                                       " fit")
                    .in_field("Worker_Results.target_results.count"));
  }
  auto block = make_data_block();
  image::put_u64(block, kDataUnionOffset + worker::kTimeStart, results.time_start);
  image::put_u64(block, kDataUnionOffset + worker::kTimeEnd, results.time_end);
  image::put_i32(block, kDataUnionOffset + worker::kTargetCount, static_cast<std::int32_t>(results.targets.size()));
  for (std::size_t i = 0; i < results.targets.size(); ++i) {
    const auto& target = results.targets[i];
    const auto base = raw_offset(i);
    for (const auto& [offset, member] : kU64Members) image::put_u64(block, base + offset, target.*member);
    image::put_u32(block, base + raw::kReadErrors, target.read_errors);
    image::put_u32(block, base + raw::kWriteErrors, target.write_errors);
    image::put_i64(block, base + raw::kCounterTime, target.counter_time);
    for (std::size_t bin = 0; bin < kLatencyBinCount; ++bin) {
      if (target.latency_bins[bin] > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return fail(Error(ErrorCode::invalid_argument, "latency bin count does not fit a signed 64-bit field")
                        .in_field("Raw_Result[" + std::to_string(i) + "].latency_bin[" + std::to_string(bin) + "]"));
      }
      image::put_i64(block, base + raw::kLatencyBins + 8 * bin, static_cast<std::int64_t>(target.latency_bins[bin]));
    }
  }
  return block;
}

Result<WorkerResults> decode_worker_results(std::span<const std::byte> block) {
  if (auto whole = image::check_whole_block(block, "Worker_Results"); !whole) return fail(whole.error());
  WorkerResults results;
  results.time_start = image::get_u64(block, kDataUnionOffset + worker::kTimeStart);
  results.time_end = image::get_u64(block, kDataUnionOffset + worker::kTimeEnd);
  if (results.time_end < results.time_start) {
    return fail(Error(ErrorCode::parse_error, "the recording window ends before it starts")
                    .in_field("Worker_Results.time"));
  }
  auto count = checked_count(block, kDataUnionOffset + worker::kTargetCount, kMaxTargets,
                             "Worker_Results.target_results.count");
  if (!count) return fail(count.error());
  results.targets.resize(*count);
  for (std::size_t i = 0; i < *count; ++i) {
    auto& target = results.targets[i];
    const auto base = raw_offset(i);
    for (const auto& [offset, member] : kU64Members) target.*member = image::get_u64(block, base + offset);
    target.read_errors = image::get_u32(block, base + raw::kReadErrors);
    target.write_errors = image::get_u32(block, base + raw::kWriteErrors);
    target.counter_time = image::get_i64(block, base + raw::kCounterTime);
    for (std::size_t bin = 0; bin < kLatencyBinCount; ++bin) {
      const auto value = image::get_i64(block, base + raw::kLatencyBins + 8 * bin);
      if (value < 0) {
        return fail(Error(ErrorCode::parse_error, "latency bin count " + std::to_string(value) + " is negative")
                        .in_field("Raw_Result[" + std::to_string(i) + "].latency_bin[" + std::to_string(bin) + "]"));
      }
      target.latency_bins[bin] = static_cast<std::uint64_t>(value);
    }
  }
  return results;
}

Result<DataBlock> encode_manager_results(const ManagerResults& results) {
  if (results.cpus.size() > kMaxCpus || results.nics.size() > kMaxNics) {
    return fail(Error(ErrorCode::invalid_argument, "at most " + std::to_string(kMaxCpus) + " CPUs and " +
                                                       std::to_string(kMaxNics) + " NICs fit")
                    .in_field("Manager_Results"));
  }
  auto block = make_data_block();
  const auto base = kDataUnionOffset;
  image::put_i64(block, base + manager::kTimeCounter, results.time_counter[0]);
  image::put_i64(block, base + manager::kTimeCounter + 8, results.time_counter[1]);
  image::put_i32(block, base + manager::kCpuCount, static_cast<std::int32_t>(results.cpus.size()));
  put_table(block, base + manager::kCpuUtil, results.cpus, kCpuMembers);
  image::put_f64(block, base + manager::kTcpStats, results.tcp_retransmissions_per_second);
  image::put_i32(block, base + manager::kNicCount, static_cast<std::int32_t>(results.nics.size()));
  put_table(block, base + manager::kNicStats, results.nics, kNicMembers);
  return block;
}

Result<ManagerResults> decode_manager_results(std::span<const std::byte> block) {
  if (auto whole = image::check_whole_block(block, "Manager_Results"); !whole) return fail(whole.error());
  const auto base = kDataUnionOffset;
  ManagerResults results;
  results.time_counter = {image::get_i64(block, base + manager::kTimeCounter),
                          image::get_i64(block, base + manager::kTimeCounter + 8)};
  auto cpus = checked_count(block, base + manager::kCpuCount, kMaxCpus, "Manager_Results.cpu_results.count");
  if (!cpus) return fail(cpus.error());
  auto cpu_rows = get_table(block, base + manager::kCpuUtil, *cpus, kCpuMembers,
                            "Manager_Results.cpu_results.CPU_utilization");
  if (!cpu_rows) return fail(cpu_rows.error());
  results.cpus = std::move(*cpu_rows);
  auto retransmissions = checked_finite(block, base + manager::kTcpStats, "Manager_Results.net_results.tcp_stats[0]");
  if (!retransmissions) return fail(retransmissions.error());
  results.tcp_retransmissions_per_second = *retransmissions;
  auto nics = checked_count(block, base + manager::kNicCount, kMaxNics, "Manager_Results.net_results.ni_count");
  if (!nics) return fail(nics.error());
  auto nic_rows = get_table(block, base + manager::kNicStats, *nics, kNicMembers, "Manager_Results.net_results.ni_stats");
  if (!nic_rows) return fail(nic_rows.error());
  results.nics = std::move(*nic_rows);
  return results;
}

}  // namespace iomark::legacy
