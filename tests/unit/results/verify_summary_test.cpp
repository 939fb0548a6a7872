// --verify in results: the JSON round trip of the report, and the console lines.
#include "iomark/results/verify_summary.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "fixtures.hpp"
#include "iomark/results/results_json.hpp"

namespace iomark::results {
namespace {

VerifyReport report_with_findings() {
  VerifyReport report;
  report.first_findings.reserve(VerifyReport::kFindingsKept);
  report.blocks_checked = 1'000'000;
  report.blocks_not_judged = 12;
  report.busy_redraws = 3;
  report.add({VerifyFailure::corrupted, 8192, 4, 4, 8192, 0xdeadbeef, 0x12345678});
  report.add({VerifyFailure::misdirected, 4096, 2, 1, 0, 0, 0});
  report.add({VerifyFailure::stale, 12288, 3, 0, 0, 0, 0});
  return report;
}

RunResults verified_run() {
  RunResults run = test_support::example_run();
  run.managers.at(0).workers.at(0).targets.at(0).verify = report_with_findings();
  return run;
}

TEST(VerifyResults, TheReportRoundTripsThroughJsonAndIsAbsentWhenNotVerifying) {
  const SeriesResults series{{}, std::nullopt, {verified_run(), test_support::example_run()}, SeriesOutcome::completed};
  const auto text = write_results_json(series);
  const auto read = read_results_json(text, "results.json");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);
  const auto document = nlohmann::json::parse(text);
  const auto& target = document.at("runs").at(0).at("managers").at(0).at("workers").at(0).at("targets").at(0);
  EXPECT_EQ(target.at("verify").at("stale"), 1);
  EXPECT_EQ(target.at("verify").at("first_findings").at(1).at("failure"), "misdirected");
  EXPECT_FALSE(document.at("runs").at(1).at("managers").at(0).at("workers").at(0).at("targets").at(0).contains("verify"));
}

TEST(VerifyResults, ConsoleLinesCountThenNameEachFindingWithItsOffset) {
  const auto run = verified_run();
  EXPECT_EQ(bad_blocks(run), 3U);
  EXPECT_EQ(bad_blocks(test_support::example_run()), 0U);
  EXPECT_TRUE(verify_lines(test_support::example_run()).empty());
  const auto lines = verify_lines(run);
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_NE(lines[0].find("1000000 blocks checked"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("3 bad: 1 corrupted, 1 misdirected, 1 stale"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1], "  corrupted at byte 8192: expected crc32c 0xdeadbeef (generation 4), found 0x12345678");
  EXPECT_EQ(lines[2], "  misdirected at byte 4096: expected the block of byte 4096, found the block of byte 0 (generation 1)");
  EXPECT_EQ(lines[3], "  stale at byte 12288: expected generation 3, found no iomark header (the write never arrived)");
}

TEST(VerifyReport, KeepsTheFirstFindingsInFullAndCountsTheRest) {
  VerifyReport report;
  report.first_findings.reserve(VerifyReport::kFindingsKept);
  for (std::uint64_t i = 0; i < 20; ++i) report.add({VerifyFailure::stale, i * 4096, 2, 1, i * 4096, 0, 0});
  EXPECT_EQ(report.stale, 20U);
  ASSERT_EQ(report.first_findings.size(), VerifyReport::kFindingsKept);
  EXPECT_EQ(report.first_findings.back().offset_bytes, (VerifyReport::kFindingsKept - 1) * 4096);
  VerifyReport merged;
  merged.merge(report);
  merged.merge(report);
  EXPECT_EQ(merged.bad_blocks(), 40U);
  EXPECT_EQ(merged.first_findings.size(), VerifyReport::kFindingsKept);
}

}  // namespace
}  // namespace iomark::results
