#include "iomark/agent/host_stats.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace iomark::agent {
namespace {

constexpr std::string_view kBefore =
    "cpu  300 0 200 1000 0 0 0 0 0 0\n"
    "cpu0 100 0 100 500 0 0 0 0 0 0\n"
    "cpu2 200 0 100 500 0 0 0 0 0 0\n"
    "intr 5000 12 0 3\n"
    "ctxt 999\n";
// Over the window cpu0 ran 20 user + 10 nice + 30 system + 10 irq + 10 softirq of 200
// jiffies (20 iowait, 100 idle); cpu2 was idle for 100 jiffies.
constexpr std::string_view kAfter =
    "cpu  330 10 230 1200 20 10 10 0 0 0\n"
    "cpu0 120 10 130 600 20 10 10 0 0 0\n"
    "cpu2 200 0 100 600 0 0 0 0 0 0\n"
    "intr 7000 12 0 3\n";

TEST(ParseProcStat, ReadsCpuLinesAndInterrupts) {
  const auto snapshot = parse_proc_stat(kBefore).value();
  ASSERT_EQ(snapshot.cpus.size(), 2U);  // the aggregate "cpu" line is not a CPU
  EXPECT_EQ(snapshot.cpus[1].cpu, 2U);  // numbering is taken, not assumed consecutive
  EXPECT_EQ(snapshot.cpus[0].system, 100U);
  EXPECT_EQ(snapshot.interrupts_total, 5000U);
}

TEST(ParseProcStat, AcceptsOldKernelsWithFourColumns) {
  const auto snapshot = parse_proc_stat("cpu0 1 2 3 4\n").value();
  EXPECT_EQ(snapshot.cpus[0].idle, 4U);
  EXPECT_EQ(snapshot.cpus[0].iowait, 0U);
}

TEST(ParseProcStat, NamesTheBadLine) {
  const auto bad = parse_proc_stat("cpu0 1 2 3 4\ncpu1 1 x 3 4\n");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().describe(), "/proc/stat:2: malformed cpu line");
  EXPECT_FALSE(parse_proc_stat("intr 5\n").has_value());  // no CPU at all
  EXPECT_FALSE(parse_proc_stat("cpu0 1 2\n").has_value());
}

TEST(CpuUtilisation, FollowsIometerDefinitionsPerCpu) {
  const auto before = parse_proc_stat(kBefore).value();
  const auto after = parse_proc_stat(kAfter).value();
  const auto cpus = cpu_utilisation(before, after, 2.0);
  ASSERT_EQ(cpus.size(), 2U);
  EXPECT_DOUBLE_EQ(cpus[0].user, 15.0);        // (20 + 10) / 200
  EXPECT_DOUBLE_EQ(cpus[0].privileged, 25.0);  // (30 + 10 + 10) / 200
  EXPECT_DOUBLE_EQ(cpus[0].total, 40.0);
  EXPECT_DOUBLE_EQ(cpus[0].irq, 10.0);
  EXPECT_DOUBLE_EQ(cpus[0].iowait, 10.0);
  EXPECT_DOUBLE_EQ(cpus[0].idle, 50.0);
  EXPECT_DOUBLE_EQ(cpus[0].interrupts_per_second, 1000.0);  // 2000 over 2 s, all on the first CPU
  EXPECT_DOUBLE_EQ(cpus[1].total, 0.0);
  EXPECT_DOUBLE_EQ(cpus[1].interrupts_per_second, 0.0);
  EXPECT_DOUBLE_EQ(mean_total(cpus), 20.0);
}

TEST(CpuUtilisation, BusySecondsCountEveryCpu) {
  const auto before = parse_proc_stat(kBefore).value();
  const auto after = parse_proc_stat(kAfter).value();
  // cpu0 was busy 80 jiffies (200 minus 100 idle and 20 iowait), cpu2 none.
  EXPECT_DOUBLE_EQ(busy_cpu_seconds(before, after), 80.0 / static_cast<double>(::sysconf(_SC_CLK_TCK)));
}

TEST(CpuUtilisation, LeavesOutCpusMissingFromASnapshot) {
  const auto before = parse_proc_stat("cpu0 1 0 1 10\n").value();
  const auto after = parse_proc_stat("cpu0 2 0 2 20\ncpu1 5 0 5 5\n").value();
  EXPECT_EQ(cpu_utilisation(before, after, 1.0).size(), 1U);
}

TEST(CpuEffectiveness, IopsPerPercentCpu) {
  EXPECT_DOUBLE_EQ(cpu_effectiveness(10000, 11), 10000.0 / 11);
  EXPECT_DOUBLE_EQ(cpu_effectiveness(10000, 0), 0.0);
}

TEST(ReadCpuSnapshot, ReadsThisMachine) {
  const auto snapshot = read_cpu_snapshot();
  ASSERT_TRUE(snapshot.has_value()) << snapshot.error().describe();
  EXPECT_GE(snapshot->cpus.size(), 1U);
}

}  // namespace
}  // namespace iomark::agent
