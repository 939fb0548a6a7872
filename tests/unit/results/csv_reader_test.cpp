// Reading every results.csv dialect of the corpus, our own output, and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fixtures.hpp"
#include "icf_corpus.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_csv.hpp"

namespace iomark::results {
namespace {

using test_support::corpus_file;
using access_specs::RecordResults;
using test_support::mixed_run;

// Skips every test of the suite when the corpus folder is absent.
using CsvReaderCorpus = ::iomark::test_support::IcfCorpusTest;

constexpr std::string_view kSqlServerIo = "SQLServerIO__IometerParser__iometeroutput.csv";
constexpr std::string_view kQuarchResults = "QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__testfile.csv";
constexpr std::string_view kQuarchInstant =
    "QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__insttestfile.csv";

std::vector<CsvSeries> read_corpus(std::string_view name) {
  const std::string text = corpus_file(name);
  auto series = read_results_csv(text, name);
  EXPECT_TRUE(series) << series.error().describe();
  return series ? std::move(*series) : std::vector<CsvSeries>{};
}

TEST_F(CsvReaderCorpus, SqlServerIo2008Dialect) {
  const std::vector<CsvSeries> series = read_corpus(kSqlServerIo);
  ASSERT_EQ(series.size(), 1u);
  const CsvSeries& s = series[0];
  EXPECT_EQ(s.test_type, access_specs::TestType::cycle_outstanding_ios);
  EXPECT_EQ(s.description, "SQL Server Non-mixed workload test");
  EXPECT_EQ(s.version, "2008.06.18");
  EXPECT_EQ(s.time_stamp, "2010-07-26 09:28:04:211");
  EXPECT_EQ(s.end, CsvSeriesEnd::none);
  ASSERT_EQ(s.spec_blocks.size(), 8u);
  ASSERT_EQ(s.runs.size(), 64u);

  const access_specs::AccessSpec& spec = s.spec_blocks[0].specs.at(0);
  EXPECT_EQ(spec.name, "8k 0% Read; 100% Random 8k");
  EXPECT_EQ(spec.default_assignment, access_specs::DefaultAssignment::none);
  ASSERT_EQ(spec.lines.size(), 1u);
  EXPECT_EQ(spec.lines[0], (access_specs::AccessSpecLine{8192, 100, 0, 100, 0, 1, 0, 0}));
  EXPECT_EQ(s.spec_blocks[7].specs.at(0).name, "64k 100% Read; 100% Random 64k");

  const CsvRun& first = s.runs[0];
  EXPECT_EQ(first.layout, CsvLayout::legacy);
  EXPECT_EQ(first.columns.size(), 56u);
  EXPECT_EQ(first.spec_block, 0u);
  EXPECT_EQ(first.time_stamp, "2010-07-26 09:29:04:245");
  const CsvRow* all = first.find_row("ALL");
  ASSERT_NE(all, nullptr);
  EXPECT_DOUBLE_EQ(*all->stats.iops, 1196.489673);
  EXPECT_DOUBLE_EQ(*all->stats.write_iops, 1196.489673);
  EXPECT_DOUBLE_EQ(*all->stats.mib_per_s, 9.347576);  // `MBps` is binary before 1.1.0
  EXPECT_FALSE(all->stats.mb_per_s.has_value());
  EXPECT_DOUBLE_EQ(*all->stats.average_response_ms, 0.835007);
  EXPECT_DOUBLE_EQ(*all->stats.maximum_response_ms, 35.649557);
  EXPECT_DOUBLE_EQ(*all->stats.errors, 0.0);
  EXPECT_DOUBLE_EQ(*all->stats.queue_depth, 1.0);
  EXPECT_DOUBLE_EQ(*all->stats.cpu_percent, 1.218407);
  EXPECT_DOUBLE_EQ(*all->stats.disks, 1.0);
  EXPECT_EQ(all->value("Bytes Written"), "588210176");
  EXPECT_EQ(all->value("Processor Speed"), "");
  EXPECT_EQ(first.find_row("MANAGER")->number("Processor Speed"), 2333000000.0);
  EXPECT_EQ(first.find_row("DISK")->name, "8: \"Pliant LS300S P10\"");

  std::size_t processors = 0;
  for (const CsvRow& row : first.rows) processors += row.type == "PROCESSOR" ? 1 : 0;
  EXPECT_EQ(processors, 8u);

  // Cycling outstanding I/Os: 8 runs per spec, queue depths 1..128.
  EXPECT_DOUBLE_EQ(*s.runs[7].find_row("ALL")->stats.queue_depth, 128.0);
  EXPECT_EQ(s.runs[8].spec_block, 1u);
  EXPECT_DOUBLE_EQ(*s.runs[8].find_row("ALL")->stats.iops, 822.472459);
  EXPECT_EQ(s.runs[63].spec_block, 7u);
  EXPECT_DOUBLE_EQ(*s.runs[63].find_row("ALL")->stats.read_iops, 4206.196928);
}

TEST_F(CsvReaderCorpus, Quarch110Results) {
  const std::vector<CsvSeries> series = read_corpus(kQuarchResults);
  ASSERT_EQ(series.size(), 59u);
  std::size_t runs = 0;
  for (const CsvSeries& s : series) {
    runs += s.runs.size();
    EXPECT_EQ(s.version, "1.1.0");
    EXPECT_EQ(s.end, CsvSeriesEnd::end_test);
    EXPECT_EQ(s.spec_blocks.size(), 1u);
  }
  EXPECT_EQ(runs, 59u);

  const CsvSeries& first = series.front();
  EXPECT_EQ(first.test_type, access_specs::TestType::normal);
  EXPECT_EQ(first.description, "512B Random Read");
  EXPECT_EQ(first.spec_blocks[0].specs.at(0).lines.at(0), (access_specs::AccessSpecLine{512, 100, 100, 100, 0, 1, 0, 0}));
  const CsvRun& run = first.runs.at(0);
  EXPECT_EQ(run.layout, CsvLayout::iometer_1_1_0);
  EXPECT_EQ(run.columns.size(), 80u);
  EXPECT_EQ(run.columns.front(), "Target Type");
  EXPECT_EQ(run.columns.back(), " >= 10 s");
  const CsvRow* all = run.find_row("ALL");
  ASSERT_NE(all, nullptr);
  EXPECT_DOUBLE_EQ(*all->stats.iops, 30171.173034);
  EXPECT_DOUBLE_EQ(*all->stats.mib_per_s, 14.732018);
  EXPECT_DOUBLE_EQ(*all->stats.mb_per_s, 15.447641);
  EXPECT_DOUBLE_EQ(*all->stats.workers, 4.0);
  EXPECT_DOUBLE_EQ(*all->stats.disks, 4.0);
  EXPECT_DOUBLE_EQ(*all->stats.managers, 1.0);
  EXPECT_DOUBLE_EQ(*all->stats.cpu_percent, 68.917106);
  EXPECT_DOUBLE_EQ(*all->stats.queue_depth, 1.0);
  EXPECT_EQ(all->value(" >= 10 s"), "0");

  std::size_t processors = 0;
  for (const CsvRow& row : run.rows) {
    if (row.type != "PROCESSOR") continue;
    ++processors;
    EXPECT_EQ(row.values.size(), 59u);  // PROCESSOR rows stop at column 59
    EXPECT_FALSE(row.stats.iops.has_value());
    EXPECT_TRUE(row.stats.cpu_percent.has_value());
  }
  EXPECT_EQ(processors, 12u);

  const CsvRow* last = series.back().runs.at(0).find_row("ALL");
  EXPECT_DOUBLE_EQ(*last->stats.iops, 8527.872164);
  EXPECT_DOUBLE_EQ(*last->stats.cpu_percent, 70.697603);
  EXPECT_EQ(series.back().description, "32K Sequential Read");
}

TEST_F(CsvReaderCorpus, QuarchInstantaneousSideFile) {
  const std::vector<CsvSeries> series = read_corpus(kQuarchInstant);
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].description, "32K Sequential Read");
  EXPECT_EQ(series[0].end, CsvSeriesEnd::end_test);
  ASSERT_EQ(series[0].runs.size(), 1u);
  const CsvRun& run = series[0].runs[0];
  EXPECT_EQ(run.layout, CsvLayout::instantaneous);
  EXPECT_EQ(run.columns.size(), 81u);
  ASSERT_EQ(run.rows.size(), 65u);  // 15 samples x 4 workers, 4 whole-run worker rows, ALL
  const CsvRow& first = run.rows[0];
  EXPECT_EQ(first.time_stamp, "2023-03-27 13:14:32:804");
  EXPECT_EQ(first.type, "WORKER");
  EXPECT_EQ(first.name, "Worker 1");
  EXPECT_DOUBLE_EQ(*first.stats.iops, 2174.84);
  EXPECT_DOUBLE_EQ(*first.stats.mib_per_s, 67.9638);  // `MBps (Binary)`
  EXPECT_DOUBLE_EQ(*first.number("Processor Speed"), 1e7);  // written as `1e+007`
  EXPECT_EQ(run.rows[60].spec, "quarch-autogenerated-spec");
  const CsvRow& all = run.rows.back();
  EXPECT_EQ(all.type, "ALL");
  EXPECT_EQ(all.time_stamp, "2023-03-27 13:14:46:852");
  EXPECT_DOUBLE_EQ(*all.stats.iops, 8527.872164);
  EXPECT_EQ(run.time_stamp, "2023-03-27 13:14:46:853");
}

TEST(CsvReader, ReadsBackWhatTheWriterWrote) {
  const RunResults runs[] = {mixed_run(0, 0), mixed_run(0, 1), mixed_run(1, 0)};
  SeriesInfo info;
  info.test_type = access_specs::TestType::cycle_outstanding_ios;
  info.description = "round trip";
  info.start_time = runs[0].info.start_time;
  ResultsCsvAppender appender;
  std::string text = appender.begin_series(info);
  for (const RunResults& run : runs) text += appender.append_run(run);
  text += appender.end_series(SeriesOutcome::aborted);

  const auto parsed = read_results_csv(text, "ours.csv");
  ASSERT_TRUE(parsed) << parsed.error().describe();
  ASSERT_EQ(parsed->size(), 1u);
  const CsvSeries& series = parsed->front();
  EXPECT_EQ(series.test_type, info.test_type);
  EXPECT_EQ(series.description, "round trip");
  EXPECT_EQ(series.version, "1.1.0");
  EXPECT_EQ(series.time_stamp, format_iometer_time(info.start_time));
  EXPECT_EQ(series.end, CsvSeriesEnd::aborted);
  ASSERT_EQ(series.spec_blocks.size(), 2u);
  EXPECT_EQ(series.spec_blocks[0].specs, runs[0].info.specs);
  ASSERT_EQ(series.runs.size(), 3u);
  EXPECT_EQ(series.runs[1].spec_block, 0u);
  EXPECT_EQ(series.runs[2].spec_block, 1u);

  for (std::size_t r = 0; r < 3; ++r) {
    const CsvRun& run = series.runs[r];
    EXPECT_EQ(run.layout, CsvLayout::iometer_1_1_0);
    EXPECT_EQ(run.time_stamp, format_iometer_time(runs[r].info.end_time));
    const RunSummary summary = summarize_run(runs[r]);
    const CsvRow* all = run.find_row("ALL");
    ASSERT_NE(all, nullptr);
    EXPECT_NEAR(*all->stats.iops, summary.all.rates.iops, 5e-7);
    EXPECT_NEAR(*all->stats.mib_per_s, summary.all.rates.mib_per_s, 5e-7);
    EXPECT_NEAR(*all->stats.mb_per_s, summary.all.rates.mb_per_s, 5e-7);
    EXPECT_NEAR(*all->stats.average_response_ms, summary.all.average_response_ms(), 5e-7);
    EXPECT_NEAR(*all->stats.maximum_response_ms, summary.all.maximum_response_ms(), 5e-7);
    EXPECT_NEAR(*all->stats.cpu_percent, summary.all.cpu->total_percent, 5e-7);
    EXPECT_EQ(*all->stats.errors, static_cast<double>(summary.all.counters.error_count()));
    EXPECT_EQ(*all->stats.workers, 3.0);
    EXPECT_EQ(*all->stats.queue_depth, -1.0);
    EXPECT_EQ(all->value("Bytes Read"), std::to_string(summary.all.counters.bytes_read));
    ASSERT_EQ(run.rows.size(), 13u);
    const CsvRow& sdc = run.rows[8];
    EXPECT_EQ(sdc.type, "DISK");
    EXPECT_EQ(sdc.name, "sdc");
    EXPECT_NEAR(*sdc.stats.iops, summary.managers[0].workers[1].targets[0].rates.iops, 5e-7);
    EXPECT_EQ(sdc.value(" >= 10 s"), "1");
  }
}

Error read_error(std::string_view text) {
  const auto result = read_results_csv(text, "bad.csv");
  EXPECT_FALSE(result);
  return result ? Error(ErrorCode::internal, "no error") : result.error();
}

constexpr std::string_view kSeriesHeader = "'Test Type,Test Description\n0,x\n'Version\n1.1.0\n";

TEST(CsvReader, RejectsRowsOutsideAResultsBlock) {
  const Error error = read_error(std::string(kSeriesHeader) + "ALL,All,spec,1,1,1,1.0\n");
  EXPECT_EQ(error.code(), ErrorCode::parse_error);
  EXPECT_EQ(error.location(), (SourceLocation{"bad.csv", 5}));
  EXPECT_EQ(read_error("ALL,All\n").location().line, 1u);
}

TEST(CsvReader, RejectsNonNumericStatistics) {
  const Error error = read_error(std::string(kSeriesHeader) +
                                 "'Results\n'Target Type,Target Name,IOps,Queue Depth\r\nALL,All,fast,1\r\n");
  EXPECT_EQ(error.location().line, 7u);
  EXPECT_EQ(error.field(), "IOps");
}

// Each statistic a chart or the history uses, with a value no measurement has: refused at its
// line and column (a -inf once crashed `iomark report` and was stored by `history import`).
TEST(CsvReader, RejectsFiguresThatAreNotFiniteOrTooLarge) {
  const std::string results =
      std::string(kSeriesHeader) + "'Results\n'Target Type,Target Name,IOps,Average Response Time,Queue Depth\n";
  for (const std::string bad : {"-inf", "inf", "+inf", "nan", "-nan", "infinity", "1e15", "-1e17", "1e308", "1e400"}) {
    for (int column = 0; column < 3; ++column) {
      std::string cells[3] = {"100", "0.5", "4"};
      cells[column] = bad;
      const Error error = read_error(results + "ALL,All," + cells[0] + "," + cells[1] + "," + cells[2] + "\n");
      EXPECT_EQ(error.code(), ErrorCode::parse_error) << bad;
      EXPECT_EQ(error.location(), (SourceLocation{"bad.csv", 7})) << bad;
      const char* captions[3] = {"IOps", "Average Response Time", "Queue Depth"};
      EXPECT_EQ(error.field(), captions[column]) << bad;
      EXPECT_NE(error.message().find("column " + std::to_string(column + 3)), std::string::npos) << error.message();
    }
  }
  const auto largest = read_results_csv(results + "ALL,All,999999999999999,-999999999999999,0\n");
  ASSERT_TRUE(largest) << largest.error().describe();
  EXPECT_DOUBLE_EQ(*largest->at(0).runs.at(0).rows.at(0).stats.iops, 999999999999999.0);
  // Other columns read through CsvRow::number count a non-figure as missing.
  const auto other = read_results_csv(results.substr(0, results.size() - 1) + ",Bytes Read\nALL,All,1,1,1,inf\n");
  ASSERT_TRUE(other) << other.error().describe();
  EXPECT_FALSE(other->at(0).runs.at(0).rows.at(0).number("Bytes Read"));
}

// 50 MB of newlines: refused at the first line past the limit, without an index of the lines
// (they once cost 1.1 GB); tests/unit/results/CMakeLists.txt needs no memory limit for this.
TEST(CsvReader, RefusesMoreLinesThanTheLimit) {
  const std::string newlines(kMaxCsvLines + 1, '\n');
  const Error error = read_error(newlines);
  EXPECT_EQ(error.location(), (SourceLocation{"bad.csv", kMaxCsvLines + 1}));
  EXPECT_NE(error.message().find("more than 33554432 lines"), std::string::npos) << error.message();
  const std::string at_limit(kMaxCsvLines, '\n');
  const auto read = read_results_csv(at_limit, "ok.csv");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_TRUE(read->empty());
}

TEST(CsvReader, ToleratesEmptyExtraFieldsButNotValues) {
  const std::string results = std::string(kSeriesHeader) + "'Results\n'Target Type,Target Name,IOps\n";
  const auto ok = read_results_csv(results + "ALL,All,1e+003,,,\n");
  ASSERT_TRUE(ok) << ok.error().describe();
  EXPECT_DOUBLE_EQ(*ok->at(0).runs.at(0).rows.at(0).stats.iops, 1000.0);
  EXPECT_EQ(read_error(results + "ALL,All,1,2\n").location().line, 7u);
}

TEST(CsvReader, RejectsMalformedHeadersAndSpecs) {
  EXPECT_EQ(read_error("'Test Type,Test Description\n9,x\n").field(), "Test Type");
  EXPECT_EQ(read_error("'Test Type,Test Description\n").location().line, 1u);
  EXPECT_EQ(read_error(std::string(kSeriesHeader) + "'Results\n'Name,IOps\n").location().line, 6u);
  const std::string specs = std::string(kSeriesHeader) +
                            "'Access specifications\n'Access specification name,default assignment\nA,0\n"
                            "'size,% of size,% reads,% random,delay,burst,align,reply\n";
  EXPECT_EQ(read_error(specs + "512,100,x,0,0,1,0,0,\n'End access specifications\n").location().line, 9u);
  EXPECT_EQ(read_error(specs + "512,100,0,0,0,1,0,0,\n").location().line, 9u);  // no end marker
  EXPECT_EQ(read_error(std::string(kSeriesHeader) +
                       "'Access specifications\n'Access specification name,default assignment\nA,7\n")
                .field(),
            "default assignment");
  EXPECT_EQ(read_error(std::string(kSeriesHeader) + "'Something else\n").location().line, 5u);
}

TEST(CsvReader, KeepsBatchErrorsAndSkipsBlankLines) {
  const auto parsed =
      read_results_csv(std::string(kSeriesHeader) + "\n\nERROR: Manager hostA did not log in\n'End Test\n");
  ASSERT_TRUE(parsed) << parsed.error().describe();
  EXPECT_EQ(parsed->at(0).errors, std::vector<std::string>{"Manager hostA did not log in"});
  EXPECT_EQ(parsed->at(0).end, CsvSeriesEnd::end_test);
}

}  // namespace
}  // namespace iomark::results
