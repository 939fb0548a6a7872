// Host CPU and interrupt statistics (docs/iometer-reference.md#cpu-stats), from Linux's /proc/stat.
//
// A snapshot is taken at the start and end of a recording window (or at each sample);
// the difference gives per-CPU utilisation. Parsing takes text, so it is tested without
// /proc; read_cpu_snapshot() is the only function that touches the file system.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"

namespace iomark::agent {

// Jiffies per state for one CPU, as /proc/stat lists them.
struct CpuTimes {
  std::uint32_t cpu{};  // the N of "cpuN"
  std::uint64_t user{}, nice{}, system{}, idle{}, iowait{}, irq{}, softirq{}, steal{};
  [[nodiscard]] std::uint64_t total() const noexcept {
    return user + nice + system + idle + iowait + irq + softirq + steal;
  }
  friend bool operator==(const CpuTimes&, const CpuTimes&) = default;
};

struct CpuSnapshot {
  std::vector<CpuTimes> cpus;        // per CPU, in /proc/stat order (not assumed consecutive)
  std::uint64_t interrupts_total{};  // first field of the "intr" line
  friend bool operator==(const CpuSnapshot&, const CpuSnapshot&) = default;
};

// Percentages of one CPU over a window (0..100 each).
struct CpuUtilisation {
  std::uint32_t cpu{};
  double total{};       // user + privileged, as IOmeter defines "% CPU Utilization"
  double user{};        // user + nice
  double privileged{};  // system + irq + softirq
  double irq{};         // irq + softirq (IOmeter's DPC/interrupt columns stay 0 on Linux)
  double iowait{};
  double idle{};
  double interrupts_per_second{};  // all attributed to the first CPU, as IOmeter does
};

// Parses /proc/stat text. Fails with the 1-based line on a malformed "cpuN" or "intr" line.
[[nodiscard]] Result<CpuSnapshot> parse_proc_stat(std::string_view text);

[[nodiscard]] Result<CpuSnapshot> read_cpu_snapshot();

// Utilisation per CPU between two snapshots taken `window_seconds` apart. Unlike IOmeter,
// which divides by CPU 0's elapsed jiffies, each CPU is divided by its own elapsed
// jiffies, so an offline or hot-plugged CPU does not distort the others. CPUs missing
// from either snapshot are left out.
[[nodiscard]] std::vector<CpuUtilisation> cpu_utilisation(const CpuSnapshot& before, const CpuSnapshot& after,
                                                          double window_seconds);

// CPU time all CPUs spent busy (neither idle nor waiting for I/O) between two snapshots,
// in seconds: the whole-system cost of a run, kernel threads included (io_uring hands work
// to kernel workers, which per-process accounting would miss).
[[nodiscard]] double busy_cpu_seconds(const CpuSnapshot& before, const CpuSnapshot& after) noexcept;

// IOmeter's "CPU Effectiveness": IOPS per percent of CPU (0 when the CPU was idle).
[[nodiscard]] double cpu_effectiveness(double iops, double cpu_percent) noexcept;

// Mean of the per-CPU totals: the host's "% CPU Utilization".
[[nodiscard]] double mean_total(const std::vector<CpuUtilisation>& cpus) noexcept;

}  // namespace iomark::agent
