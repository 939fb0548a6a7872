// The results blocks of REPORT_RESULTS / REPORT_UPDATE (docs/iometer-reference.md#wire-structs):
// one Manager_Results, then one Worker_Results per worker that ran. Counters are Dynamo's own,
// in ticks of its Manager_Info timer resolution; converting them to iomark's results model
// is the driver's job.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/legacy/wire.hpp"

namespace iomark::legacy {

inline constexpr std::size_t kLatencyBinCount = 21;

namespace raw_result_layout {
inline constexpr std::size_t kBytesRead = 0;  // uint64 each, up to kReadErrors
inline constexpr std::size_t kBytesWritten = 8;
inline constexpr std::size_t kReadCount = 16;
inline constexpr std::size_t kWriteCount = 24;
inline constexpr std::size_t kTransactionCount = 32;
inline constexpr std::size_t kConnectionCount = 40;
inline constexpr std::size_t kReadErrors = 48;   // uint32
inline constexpr std::size_t kWriteErrors = 52;  // uint32
inline constexpr std::size_t kMaxRawReadLatency = 56;  // uint64 ticks from here on
inline constexpr std::size_t kReadLatencySum = 64;
inline constexpr std::size_t kMaxRawWriteLatency = 72;
inline constexpr std::size_t kWriteLatencySum = 80;
inline constexpr std::size_t kMaxRawTransactionLatency = 88;
inline constexpr std::size_t kMaxRawConnectionLatency = 96;
inline constexpr std::size_t kTransactionLatencySum = 104;
inline constexpr std::size_t kConnectionLatencySum = 112;
inline constexpr std::size_t kCounterTime = 120;  // int64
inline constexpr std::size_t kLatencyBins = 128;  // int64[21]
inline constexpr std::size_t kBytes = 296;
}  // namespace raw_result_layout

namespace worker_results_layout {
inline constexpr std::size_t kTimeStart = 0;  // uint64 ticks
inline constexpr std::size_t kTimeEnd = 8;
inline constexpr std::size_t kTargetCount = 16;  // int32
inline constexpr std::size_t kTargetResults = 20;  // Raw_Result[2048]
inline constexpr std::size_t kBytes = 606'228;
}  // namespace worker_results_layout

namespace manager_results_layout {
inline constexpr std::size_t kTimeCounter = 0;  // int64[2]
inline constexpr std::size_t kCpuCount = 16;    // int32
inline constexpr std::size_t kCpuUtil = 20;     // double[64][6]
inline constexpr std::size_t kTcpStats = 3092;  // double[1]
inline constexpr std::size_t kNicCount = 3100;  // int32
inline constexpr std::size_t kNicStats = 3104;  // double[64][3]
inline constexpr std::size_t kBytes = 4640;
}  // namespace manager_results_layout

// One target's counters over a window (Raw_Result). Latencies are in ticks.
struct RawResult {
  std::uint64_t bytes_read{};
  std::uint64_t bytes_written{};
  std::uint64_t read_count{};
  std::uint64_t write_count{};
  std::uint64_t transaction_count{};
  std::uint64_t connection_count{};
  std::uint32_t read_errors{};
  std::uint32_t write_errors{};
  std::uint64_t max_raw_read_latency{};
  std::uint64_t read_latency_sum{};
  std::uint64_t max_raw_write_latency{};
  std::uint64_t write_latency_sum{};
  std::uint64_t max_raw_transaction_latency{};
  std::uint64_t max_raw_connection_latency{};
  std::uint64_t transaction_latency_sum{};
  std::uint64_t connection_latency_sum{};
  std::int64_t counter_time{};  // always 0 from Dynamo 1.1.0
  std::array<std::uint64_t, kLatencyBinCount> latency_bins{};
  friend bool operator==(const RawResult&, const RawResult&) = default;
};

struct WorkerResults {
  std::uint64_t time_start{};  // recording window, ticks
  std::uint64_t time_end{};
  std::vector<RawResult> targets;  // in SET_TARGETS order
  friend bool operator==(const WorkerResults&, const WorkerResults&) = default;
};

// Percentages (0..100) and interrupts per second of one CPU, in wire order.
struct CpuResult {
  double total_percent{};
  double user_percent{};
  double privileged_percent{};
  double dpc_percent{};
  double interrupt_percent{};
  double interrupts_per_second{};
  friend bool operator==(const CpuResult&, const CpuResult&) = default;
};

struct NicResult {
  double packets_per_second{};
  double out_errors_per_second{};
  double in_errors_per_second{};
  friend bool operator==(const NicResult&, const NicResult&) = default;
};

struct ManagerResults {
  std::array<std::int64_t, 2> time_counter{};  // jiffies on Linux; unused by the GUI
  std::vector<CpuResult> cpus;                 // at most kMaxCpus
  double tcp_retransmissions_per_second{};
  std::vector<NicResult> nics;  // at most kMaxNics
  friend bool operator==(const ManagerResults&, const ManagerResults&) = default;
};

// Errors: invalid_argument for more than kMaxTargets targets, or latency bins above INT64_MAX.
[[nodiscard]] Result<DataBlock> encode_worker_results(const WorkerResults& results);
// Errors: parse_error naming the field for a block that is not whole, a target count outside
// 0..kMaxTargets, a window that ends before it starts, a negative latency bin.
[[nodiscard]] Result<WorkerResults> decode_worker_results(std::span<const std::byte> block);

// Errors: invalid_argument for more than kMaxCpus CPUs or kMaxNics NICs.
[[nodiscard]] Result<DataBlock> encode_manager_results(const ManagerResults& results);
// Errors: parse_error naming the field for a block that is not whole, a CPU or NIC count
// outside 0..64, or a value in the used entries that is not finite (NaN, infinity).
[[nodiscard]] Result<ManagerResults> decode_manager_results(std::span<const std::byte> block);

}  // namespace iomark::legacy
