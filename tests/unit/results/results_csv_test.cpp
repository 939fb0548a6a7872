// results.csv writer: the example block (docs/iometer-reference.md#results-example) column for
// column, row shapes, Record Results filtering, the event-by-event appender and the deliberate
// fixes.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_csv.hpp"

namespace iomark::results {
namespace {

using access_specs::RecordResults;
using namespace std::chrono_literals;
using test_support::example_run;
using test_support::mixed_run;
using test_support::split_csv;
using test_support::split_lines;

// The example block (docs/iometer-reference.md#results-example), column for column.
constexpr std::string_view kExampleHeader =
    "'Target Type,Target Name,Access Specification Name,# Managers,# Workers,# Disks,IOps,"
    "Read IOps,Write IOps,MiBps (Binary),Read MiBps (Binary),Write MiBps (Binary),"
    "MBps (Decimal),Read MBps (Decimal),Write MBps (Decimal),Transactions per Second,"
    "Connections per Second,Average Response Time,Average Read Response Time,"
    "Average Write Response Time,Average Transaction Time,Average Connection Time,"
    "Maximum Response Time,Maximum Read Response Time,Maximum Write Response Time,"
    "Maximum Transaction Time,Maximum Connection Time,Errors,Read Errors,Write Errors,"
    "Bytes Read,Bytes Written,Read I/Os,Write I/Os,Connections,Transactions per Connection,"
    "Total Raw Read Response Time,Total Raw Write Response Time,Total Raw Transaction Time,"
    "Total Raw Connection Time,Maximum Raw Read Response Time,Maximum Raw Write Response Time,"
    "Maximum Raw Transaction Time,Maximum Raw Connection Time,Total Raw Run Time,"
    "Starting Sector,Maximum Size,Queue Depth,% CPU Utilization,% User Time,% Privileged Time,"
    "% DPC Time,% Interrupt Time,Processor Speed,Interrupts per Second,CPU Effectiveness,"
    "Packets/Second,Packet Errors,Segments Retransmitted/Second,0 to 50 uS,50 to 100 uS,"
    "100 to 200 uS,200 to 500 uS,0.5 to 1 mS,1 to 2 mS,2 to 5 mS,5 to 10 mS,10 to 15 mS,"
    "15 to 20 mS,20 to 30 mS,30 to 50 mS,50 to 100 mS,100 to 200 mS,200 to 500 mS,0.5 to 1 S,"
    "1 to 2 s,2 to 4.7 s,4.7 to 5 s,5 to 10 s, >= 10 s,iomark Data Pattern";
constexpr std::string_view kExampleAll =
    "ALL,All,4 KiB aligned; 50% Read; 100% random,1,1,1,10000.000000,6700.000000,3300.000000,"
    "39.062500,26.171875,12.890625,40.960000,27.443200,13.516800,10000.000000,0.000000,"
    "1.633000,1.600000,1.700000,1.633000,0.000000,31.000000,25.000000,31.000000,31.000000,"
    "0.000000,0,0,0,1646592000,811008000,402000,198000,0,-1,,,,,,,,,,0,0,16,11.000000,4.000000,"
    "7.000000,0.000000,0.000000,,21000.000000,909.090909,12.500000,0.000000,0.000000,0,0,0,"
    "41000,120000,201000,160000,52000,17000,6000,2200,600,150,40,10,0,0,0,0,0,0,";
constexpr std::string_view kExampleManager =
    "MANAGER,hostA,4 KiB aligned; 50% Read; 100% random,,1,1,10000.000000,6700.000000,"
    "3300.000000,39.062500,26.171875,12.890625,40.960000,27.443200,13.516800,10000.000000,"
    "0.000000,1.633000,1.600000,1.700000,1.633000,0.000000,31.000000,25.000000,31.000000,"
    "31.000000,0.000000,0,0,0,1646592000,811008000,402000,198000,0,-1,1543680000000,"
    "807839999999,2351519999999,0,60000000,74400000,74400000,0,144000000000,0,0,16,11.000000,"
    "4.000000,7.000000,0.000000,0.000000,2400000000.000000,21000.000000,909.090909,12.500000,"
    "0.000000,0.000000,0,0,0,41000,120000,201000,160000,52000,17000,6000,2200,600,150,40,10,0,"
    "0,0,0,0,0,";
constexpr std::string_view kExampleCpu0 =
    "PROCESSOR,CPU 0,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,12.500000,4.500000,8.000000,"
    "0.000000,0.000000,2400000000.000000,21000.000000,,,,";
constexpr std::string_view kExampleCpu1 =
    "PROCESSOR,CPU 1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,9.500000,3.500000,6.000000,"
    "0.000000,0.000000,2400000000.000000,0.000000,,,,";
constexpr std::string_view kExampleWorker =
    "WORKER,Worker 1,4 KiB aligned; 50% Read; 100% random,,,1,10000.000000,6700.000000,"
    "3300.000000,39.062500,26.171875,12.890625,40.960000,27.443200,13.516800,10000.000000,"
    "0.000000,1.633000,1.600000,1.700000,1.633000,0.000000,31.000000,25.000000,31.000000,"
    "31.000000,0.000000,0,0,0,1646592000,811008000,402000,198000,0,-1,1543680000000,"
    "807839999999,2351519999999,0,60000000,74400000,74400000,0,144000000000,0,0,16,,,,,,"
    "2400000000.000000,,,,,,0,0,0,41000,120000,201000,160000,52000,17000,6000,2200,600,150,40,"
    "10,0,0,0,0,0,0,";
constexpr std::string_view kExampleDisk =
    "DISK,sdb,,,,,10000.000000,6700.000000,3300.000000,39.062500,26.171875,12.890625,40.960000,"
    "27.443200,13.516800,10000.000000,0.000000,1.633000,1.600000,1.700000,1.633000,0.000000,"
    "31.000000,25.000000,31.000000,31.000000,0.000000,0,0,0,1646592000,811008000,402000,198000,"
    "0,-1,1543680000000,807839999999,2351519999999,0,60000000,74400000,74400000,0,144000000000,"
    "0,0,16,,,,,,2400000000.000000,,,,,,0,0,0,41000,120000,201000,160000,52000,17000,6000,2200,"
    "600,150,40,10,0,0,0,0,0,0,";

// The columns where a nanosecond timer necessarily differs from the example's 2.4 GHz tick
// counter: the raw tick columns (37-45) and Processor Speed (54). The values follow from the
// inputs: 402000 reads x 1.6 ms, 198000 writes x 1.7 ms, maxima 25 ms and 31 ms, a 60 s window.
const std::map<std::size_t, std::string> kNanosecondColumns = {
    {37, "643200000000"}, {38, "336600000000"}, {39, "979800000000"}, {40, "0"},
    {41, "25000000"},     {42, "31000000"},     {43, "31000000"},     {44, "0"},
    {45, "60000000000"},  {54, "1000000000.000000"}};

// IOmeter computed ticks of the example through doubles, truncating 807840000000 and
// 2351520000000 by one; iomark converts exactly.
const std::map<std::size_t, std::string> kExactTickColumns = {{38, "807840000000"}, {39, "2351520000000"}};

std::string caption(std::size_t column) { return split_csv(kExampleHeader).at(column - 1); }

// Compares a written row with the spec's, cell by cell, after replacing the non-empty cells
// listed in `overrides` (1-based column -> expected text).
void expect_row(std::string_view actual_line, std::string_view spec_line,
                const std::map<std::size_t, std::string>& overrides) {
  const std::vector<std::string> actual = split_csv(actual_line);
  std::vector<std::string> expected = split_csv(spec_line);
  for (const auto& [column, value] : overrides) {
    if (column <= expected.size() && !expected[column - 1].empty()) expected[column - 1] = value;
  }
  ASSERT_EQ(actual.size(), expected.size()) << spec_line.substr(0, 12);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i], expected[i]) << expected[0] << " row, column " << i + 1 << " `" << caption(i + 1) << "`";
  }
}

std::vector<std::string> row_types(const std::string& block) {
  std::vector<std::string> types;
  for (const std::string& line : split_lines(block)) {
    if (line.empty() || line.front() == '\'' || line.front() == '2') continue;  // markers and stamps
    types.push_back(split_csv(line).front());
  }
  return types;
}

TEST(ResultsCsvHeader, IsIometers80ColumnHeader) {
  EXPECT_EQ(results_csv_header(), kExampleHeader);
  EXPECT_EQ(split_csv(results_csv_header()).size(), kResultsCsvColumnCount);
}

TEST(ResultsCsvExample, ReproducesTheSpecExampleColumnForColumn) {
  const std::vector<std::string> lines = split_lines(format_results_block(example_run(), RecordResults::all));
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[0], "'Results");
  EXPECT_EQ(lines[1], kExampleHeader);
  expect_row(lines[2], kExampleAll, {});  // ALL leaves every timer column empty
  expect_row(lines[3], kExampleManager, kNanosecondColumns);
  expect_row(lines[4], kExampleCpu0, kNanosecondColumns);
  expect_row(lines[5], kExampleCpu1, kNanosecondColumns);
  expect_row(lines[6], kExampleWorker, kNanosecondColumns);
  expect_row(lines[7], kExampleDisk, kNanosecondColumns);
  EXPECT_EQ(lines[8], "'Time Stamp");
  EXPECT_EQ(lines[9], "2024-05-06 14:03:27:512");
}

TEST(ResultsCsvExample, WithTheExamplesTimerOnlyIometersRoundingDiffers) {
  const std::vector<std::string> lines =
      split_lines(format_results_block(example_run(2'400'000'000), RecordResults::all));
  ASSERT_EQ(lines.size(), 10u);
  expect_row(lines[2], kExampleAll, {});
  expect_row(lines[3], kExampleManager, kExactTickColumns);
  expect_row(lines[4], kExampleCpu0, {});
  expect_row(lines[5], kExampleCpu1, {});
  expect_row(lines[6], kExampleWorker, kExactTickColumns);
  expect_row(lines[7], kExampleDisk, kExactTickColumns);
}

TEST(ResultsCsvExample, RowShapes) {
  const std::vector<std::string> lines = split_lines(format_results_block(example_run(), RecordResults::all));
  ASSERT_EQ(lines.size(), 10u);
  const std::map<std::string, std::size_t> expected_fields = {
      {"ALL", 81}, {"MANAGER", 81}, {"PROCESSOR", 59}, {"WORKER", 81}, {"DISK", 81}};
  for (std::size_t i = 2; i < 8; ++i) {
    const std::vector<std::string> fields = split_csv(lines[i]);
    EXPECT_EQ(fields.size(), expected_fields.at(fields[0])) << lines[i].substr(0, 20);
  }
  // Empty cells: PROCESSOR 3-48 and 56-59, WORKER and DISK 49-53 and 55-59, ALL 37-45 and 54.
  const auto empty_in = [&](std::size_t line, std::size_t first, std::size_t last) {
    const std::vector<std::string> fields = split_csv(lines[line]);
    for (std::size_t column = first; column <= last; ++column) {
      EXPECT_EQ(fields.at(column - 1), "") << fields[0] << " column " << column;
    }
  };
  empty_in(2, 37, 45);
  empty_in(2, 54, 54);
  empty_in(3, 4, 4);
  empty_in(4, 3, 48);
  empty_in(4, 56, 59);
  empty_in(6, 4, 5);
  empty_in(6, 49, 53);
  empty_in(6, 55, 59);
  empty_in(7, 3, 6);
  empty_in(7, 49, 53);
  empty_in(7, 55, 59);
}

TEST(ResultsCsv, RecordResultsFiltersRows) {
  const RunResults run = example_run();
  EXPECT_EQ(row_types(format_results_block(run, RecordResults::all)),
            (std::vector<std::string>{"ALL", "MANAGER", "PROCESSOR", "PROCESSOR", "WORKER", "DISK"}));
  EXPECT_EQ(row_types(format_results_block(run, RecordResults::no_targets)),
            (std::vector<std::string>{"ALL", "MANAGER", "PROCESSOR", "PROCESSOR", "WORKER"}));
  EXPECT_EQ(row_types(format_results_block(run, RecordResults::no_workers)),
            (std::vector<std::string>{"ALL", "MANAGER", "PROCESSOR", "PROCESSOR"}));
  EXPECT_EQ(row_types(format_results_block(run, RecordResults::no_managers)), (std::vector<std::string>{"ALL"}));
  EXPECT_EQ(format_results_block(run, RecordResults::none), "");
  // Every filtered block still ends with its time stamp.
  const std::vector<std::string> lines = split_lines(format_results_block(run, RecordResults::no_managers));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[3], "'Time Stamp");
}

TEST(ResultsCsv, RowOrderFollowsTheTree) {
  const RunResults run = mixed_run(0, 0);
  std::vector<std::string> names;
  for (const std::string& line : split_lines(format_results_block(run, RecordResults::all))) {
    const std::vector<std::string> fields = split_csv(line);
    if (fields.size() >= 59 && line.front() != '\'') names.push_back(fields[0] + ":" + fields[1]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "ALL:All", "MANAGER:hostA", "PROCESSOR:CPU 0", "PROCESSOR:CPU 1", "WORKER:Worker 1",
                       "DISK:sdb", "DISK:/data [xfs]", "WORKER:Worker 2", "DISK:sdc", "MANAGER:hostB",
                       "PROCESSOR:CPU 0", "WORKER:Worker 1", "NETWORK:hostB:10.0.0.2 >> hostA:10.0.0.1"}));
}

std::map<std::string, std::vector<std::string>> rows_by_name(const std::string& block) {
  std::map<std::string, std::vector<std::string>> rows;
  for (const std::string& line : split_lines(block)) {
    std::vector<std::string> fields = split_csv(line);
    // The first row of each type and name (both managers have a `Worker 1`: hostA's wins).
    if (fields.size() >= 59 && line.front() != '\'') rows.emplace(fields[0] + ":" + fields[1], std::move(fields));
  }
  return rows;
}

TEST(ResultsCsv, TheIomarkDataPatternColumnFollowsIometersEighty) {
  const std::string block = format_results_block(mixed_run(0, 0), RecordResults::all);
  const auto header = split_csv(std::string(results_csv_header()));
  ASSERT_EQ(header.size(), kResultsColumnCount + 1);
  EXPECT_EQ(header[kResultsColumnCount - 1], " >= 10 s");  // IOmeter's 80 stay where they were
  EXPECT_EQ(header[kResultsColumnCount], "iomark Data Pattern");
  auto rows = rows_by_name(block);
  // The pattern's comma would shift columns, so it is written as a space.
  EXPECT_EQ(rows.at("WORKER:Worker 1")[80], "compress:2 dedupe:3");
  EXPECT_EQ(rows.at("DISK:sdb")[80], "compress:2 dedupe:3");
  EXPECT_EQ(rows.at("DISK:sdc")[80], "");       // Worker 2: not known
  EXPECT_EQ(rows.at("MANAGER:hostA")[80], "compress:2 dedupe:3");  // the only disk worker that says
  EXPECT_EQ(rows.at("MANAGER:hostB")[80], "");  // a network worker writes no data pattern
  // A reader that goes by captions finds IOmeter's columns and iomark's.
  const auto read = read_results_csv(format_series_header(SeriesInfo{}) + block, "ours.csv");
  ASSERT_TRUE(read) << read.error().describe();
  const auto& run = read->front().runs.front();
  EXPECT_EQ(run.columns.size(), kResultsColumnCount + 1);
  EXPECT_EQ(run.find_row("WORKER")->value("iomark Data Pattern"), "compress:2 dedupe:3");
}

TEST(ResultsCsv, ValuesThatDifferBetweenWorkersAreAmbiguous) {
  auto rows = rows_by_name(format_results_block(mixed_run(0, 0), RecordResults::all));
  const std::vector<std::string>& all = rows.at("ALL:All");
  EXPECT_EQ(all[2], "");                      // Spec A and Spec B
  EXPECT_EQ(all[35], "-1");                   // connection rate on for one worker only
  EXPECT_EQ(all[45], "2048");                 // both disk workers start at 2048; the network worker has none
  EXPECT_EQ(all[46], "18446744073709551615");  // maximum sizes 0 and 1000000
  EXPECT_EQ(all[47], "-1");                   // queue depths 8, 8 and 1
  const std::vector<std::string>& host_a = rows.at("MANAGER:hostA");
  EXPECT_EQ(host_a[2], "");
  EXPECT_EQ(host_a[47], "8");
  const std::vector<std::string>& host_b = rows.at("MANAGER:hostB");
  EXPECT_EQ(host_b[2], "Spec A");
  EXPECT_EQ(host_b[35], "5");                     // its only worker tests connection rate, 5 per connection
  EXPECT_EQ(host_b[45], "18446744073709551615");  // no disk worker
  EXPECT_EQ(host_b[47], "1");
}

TEST(ResultsCsv, CountsAndRatesInTheRows) {
  auto rows = rows_by_name(format_results_block(mixed_run(0, 0), RecordResults::all));
  // Worker 1: sdb 1000 I/Os and /data 50 I/Os over 10 s; Worker 2: 4001 writes over 20 s;
  // hostB's worker: 600 I/Os over 15 s.
  EXPECT_EQ(rows.at("WORKER:Worker 1")[6], "105.000000");
  EXPECT_EQ(rows.at("WORKER:Worker 2")[6], "200.050000");
  EXPECT_EQ(rows.at("MANAGER:hostA")[6], "305.050000");
  EXPECT_EQ(rows.at("ALL:All")[6], "345.050000");
  EXPECT_EQ(rows.at("ALL:All")[3], "2");  // managers
  EXPECT_EQ(rows.at("ALL:All")[4], "3");  // workers
  EXPECT_EQ(rows.at("ALL:All")[5], "4");  // targets
  EXPECT_EQ(rows.at("MANAGER:hostA")[4], "2");
  EXPECT_EQ(rows.at("MANAGER:hostA")[5], "3");
  EXPECT_EQ(rows.at("WORKER:Worker 1")[5], "2");
  EXPECT_EQ(rows.at("ALL:All")[27], "4");  // errors: 3 read + 1 write
  EXPECT_EQ(rows.at("ALL:All")[28], "3");
  EXPECT_EQ(rows.at("ALL:All")[29], "1");
  EXPECT_EQ(rows.at("NETWORK:hostB:10.0.0.2 >> hostA:10.0.0.1")[16], "8.000000");  // 120 connections / 15 s
  // Manager CPU: hostA averages 10 % and 30 %, hostB has 50 %; ALL averages the managers.
  EXPECT_EQ(rows.at("MANAGER:hostA")[48], "20.000000");
  EXPECT_EQ(rows.at("ALL:All")[48], "35.000000");
  EXPECT_EQ(rows.at("ALL:All")[54], "1500.000000");  // interrupts/s summed
  EXPECT_EQ(rows.at("ALL:All")[56], "300.000000");   // packets/s summed
}

TEST(ResultsCsv, FixedNotationWithSixDecimals) {
  RunResults run = example_run();
  WorkerResult& worker = run.managers[0].workers[0];
  worker.recording_window = 3s;
  worker.targets[0] = test_support::uniform_target("sdb", 1, 0, 512, 1'000);
  const auto rows = rows_by_name(format_results_block(run, RecordResults::all));
  EXPECT_EQ(rows.at("DISK:sdb")[6], "0.333333");      // 1 I/O in 3 s
  EXPECT_EQ(rows.at("DISK:sdb")[17], "0.001000");     // 1 us in ms
  EXPECT_EQ(rows.at("DISK:sdb")[9], "0.000163");      // 512 B / 2^20 / 3 s
  EXPECT_EQ(rows.at("DISK:sdb")[12], "0.000171");     // 512 B / 10^6 / 3 s
  EXPECT_EQ(rows.at("MANAGER:hostA")[55], "0.030303");  // 0.333333 IOps / 11 % CPU
}

TEST(ResultsCsv, TargetRowsCarryTheirOwnValuesByDefault) {
  const RunResults run = mixed_run(0, 0);
  const IoCounters& sdb = run.managers[0].workers[0].targets[0].counters;
  const auto own = rows_by_name(format_results_block(run, RecordResults::all));
  const std::vector<std::string>& row = own.at("DISK:sdb");
  EXPECT_EQ(row[36], "180000000");  // sdb's own read latency sum: 900 x 200 us
  for (std::size_t bin = 0; bin < kLegacyLatencyBinCount; ++bin) {
    EXPECT_EQ(row[59 + bin], std::to_string(sdb.latency.legacy_bins()[bin])) << "bin " << bin;
  }
  EXPECT_EQ(row[59 + 7], "0");  // 5-10 ms: only /data's 9 ms I/Os
  EXPECT_EQ(own.at("WORKER:Worker 1")[59 + 7], "50");

  const auto legacy = rows_by_name(
      format_results_block(run, RecordResults::all, TargetRowValues::copied_from_worker));
  const std::vector<std::string>& copied = legacy.at("DISK:sdb");
  const std::vector<std::string>& worker = legacy.at("WORKER:Worker 1");
  EXPECT_EQ(copied[36], "630000000");  // the worker's: + 50 x 9 ms on /data
  for (std::size_t column = 36; column <= 48; ++column) EXPECT_EQ(copied[column - 1], worker[column - 1]) << column;
  for (std::size_t column = 60; column <= 80; ++column) EXPECT_EQ(copied[column - 1], worker[column - 1]) << column;
  for (std::size_t column = 7; column <= 35; ++column) EXPECT_EQ(copied[column - 1], row[column - 1]) << column;
}

TEST(ResultsCsv, LatenciesOfTenSecondsAndMoreAreCounted) {
  const auto rows = rows_by_name(format_results_block(mixed_run(0, 0), RecordResults::all));
  EXPECT_EQ(rows.at("DISK:sdc")[79], "1");
  EXPECT_EQ(rows.at("ALL:All")[79], "1");
}

TEST(ResultsCsv, NamesCannotBreakTheLayout) {
  RunResults run = mixed_run(0, 0);
  run.managers[0].name = "host,A";
  run.managers[0].workers[0].name = "Worker\r\n1";
  run.managers[0].workers[0].targets[0].name = "sd,b";
  run.managers[0].workers[0].spec_name = "Spec, A";
  const std::string block = format_results_block(run, RecordResults::all);
  for (const std::string& line : split_lines(block)) {
    const std::size_t fields = split_csv(line).size();
    EXPECT_TRUE(fields == 1 || fields == 59 || fields == 81) << line;
  }
  const auto rows = rows_by_name(block);
  EXPECT_TRUE(rows.contains("MANAGER:host A"));
  EXPECT_TRUE(rows.contains("WORKER:Worker  1"));
  EXPECT_TRUE(rows.contains("DISK:sd b"));
  EXPECT_EQ(rows.at("WORKER:Worker  1")[2], "Spec  A");
}

TEST(ResultsCsv, SeriesHeader) {
  SeriesInfo series;
  series.test_type = access_specs::TestType::cycle_outstanding_ios;
  series.description = "QD sweep, 4k";
  series.start_time = test_support::example_end_time();
  EXPECT_EQ(format_series_header(series),
            "'Test Type,Test Description\n6,QD sweep  4k\n'Version\n1.1.0\n'Time Stamp\n2024-05-06 14:03:27:512\n");
}

TEST(ResultsCsv, SpecBlockHasNumericAssignmentAndTrailingCommas) {
  std::vector<access_specs::AccessSpec> specs(2);
  specs[0].name = "4 KiB aligned; 50% Read; 100% random";
  specs[0].lines = {access_specs::AccessSpecLine{4096, 100, 50, 100, 0, 1, 4096, 0}};
  specs[1].name = "mixed";
  specs[1].default_assignment = access_specs::DefaultAssignment::disk;
  specs[1].lines = {access_specs::AccessSpecLine{512, 40, 100, 0, 5, 2, 0, 0},
                    access_specs::AccessSpecLine{65536, 60, 0, 100, 0, 1, 0, 1024}};
  EXPECT_EQ(format_spec_block(specs),
            "'Access specifications\n"
            "'Access specification name,default assignment\n"
            "4 KiB aligned; 50% Read; 100% random,0\n"
            "'size,% of size,% reads,% random,delay,burst,align,reply\n"
            "4096,100,50,100,0,1,4096,0,\n"
            "'Access specification name,default assignment\n"
            "mixed,2\n"
            "'size,% of size,% reads,% random,delay,burst,align,reply\n"
            "512,40,100,0,5,2,0,0,\n"
            "65536,60,0,100,0,1,0,1024,\n"
            "'End access specifications\n");
}

TEST(ResultsCsvAppender, WritesEachEventOnce) {
  ResultsCsvAppender appender;
  SeriesInfo series;
  series.start_time = test_support::example_end_time();
  const std::string header = appender.begin_series(series);
  EXPECT_TRUE(header.starts_with("'Test Type,Test Description\n0,\n'Version\n1.1.0\n"));

  const RunResults first = mixed_run(0, 0);
  const std::string run1 = appender.append_run(first);
  EXPECT_TRUE(run1.starts_with(format_spec_block(first.info.specs) + "'Results\n"));
  EXPECT_TRUE(run1.ends_with("'Time Stamp\n" + format_iometer_time(first.info.end_time) + "\n"));

  // The next cycling step of the same access index gets no spec block.
  const std::string run2 = appender.append_run(mixed_run(0, 1));
  EXPECT_TRUE(run2.starts_with("'Results\n"));
  EXPECT_EQ(run2.find("'Access specifications"), std::string::npos);

  const std::string run3 = appender.append_run(mixed_run(1, 0));
  EXPECT_TRUE(run3.starts_with("'Access specifications\n"));

  EXPECT_EQ(appender.end_series(SeriesOutcome::completed), "'End Test\n");
  EXPECT_EQ(appender.end_series(SeriesOutcome::aborted), "Aborted test\n");
  EXPECT_EQ(appender.end_series(SeriesOutcome::in_progress), "");

  // A new series announces its specs again.
  (void)appender.begin_series(series);
  EXPECT_TRUE(appender.append_run(mixed_run(1, 0)).starts_with("'Access specifications\n"));
}

TEST(ResultsCsvAppender, MarksAFailedRunWithAnErrorLineTheReaderKeeps) {
  ResultsCsvAppender appender;
  SeriesInfo series;
  series.start_time = test_support::example_end_time();
  std::string text = appender.begin_series(series);
  text += appender.append_run(mixed_run(0, 0));
  const std::string error = appender.append_error("run 2 of 3: agent 'db2', lost:\nsilent for 5 s");
  EXPECT_EQ(error, "\nERROR: run 2 of 3: agent 'db2', lost: silent for 5 s\n");
  text += error;
  text += appender.append_run(mixed_run(0, 2));
  text += appender.end_series(SeriesOutcome::aborted);

  const auto read = read_results_csv(text, "results.csv");
  ASSERT_TRUE(read) << read.error().describe();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ(read->front().errors, std::vector<std::string>{"run 2 of 3: agent 'db2', lost: silent for 5 s"});
  EXPECT_EQ(read->front().runs.size(), 2u);
  EXPECT_EQ(read->front().end, CsvSeriesEnd::aborted);
}

TEST(ResultsCsvAppender, RecordNoneWritesNothing) {
  ResultsCsvAppender appender;
  SeriesInfo series;
  series.record_results = RecordResults::none;
  EXPECT_EQ(appender.begin_series(series), "");
  EXPECT_EQ(appender.append_run(example_run()), "");
  EXPECT_EQ(appender.append_error("lost"), "");
  EXPECT_EQ(appender.end_series(SeriesOutcome::completed), "");
}

TEST(ResultsCsvAppender, UsesTheSeriesRecordModeAndTargetOption) {
  ResultsCsvAppender appender(CsvOptions{TargetRowValues::copied_from_worker, "1.1.0"});
  SeriesInfo series;
  series.record_results = RecordResults::no_targets;
  (void)appender.begin_series(series);
  const RunResults run = mixed_run(0, 0);
  const std::string text = appender.append_run(run);
  EXPECT_EQ(text, format_spec_block(run.info.specs) + format_results_block(run, RecordResults::no_targets));
  EXPECT_EQ(row_types(text.substr(text.find("'Results"))).size(), 9u);  // ALL, 2 MANAGER, 3 PROCESSOR, 3 WORKER
}

}  // namespace
}  // namespace iomark::results
