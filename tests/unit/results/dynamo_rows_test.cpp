// Rows of a Dynamo manager: its 21 latency bins and timer resolution are shown as IOmeter
// shows them, and percentiles it cannot give (nor those of an ALL row that includes it)
// are left out, never invented.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fixtures.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/run_points.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::results {
namespace {

using test_support::disk_worker;
using test_support::split_csv;
using test_support::split_lines;
using test_support::uniform_target;
using Json = nlohmann::json;

constexpr std::uint64_t kDynamoTimerHz = 2'500'000'000;

// What DynamoConnection makes of a Dynamo's counters: sums and maxima, and the latency
// histogram holds only the legacy bins.
TargetResult dynamo_target(std::string name, std::uint64_t reads, std::uint64_t writes, std::uint64_t latency_ns) {
  TargetResult target = uniform_target(std::move(name), reads, writes, 4096, latency_ns);
  target.counters.latency = CompactLatencyHistogram::from_legacy_bins(target.counters.latency.legacy_bins());
  return target;
}

// An iomark agent `agent` (100 I/Os of 300 us) and a Dynamo `dynamo` (50 I/Os of 3 ms).
RunResults agent_and_dynamo_run() {
  RunResults run;
  run.info.specs.push_back({.name = "Spec A", .lines = {}});
  ManagerResult agent;
  agent.name = "agent";
  agent.host.cpu_count = 1;
  agent.workers.push_back(disk_worker("Worker 1", std::chrono::seconds(10), {uniform_target("/tmp/a", 60, 40, 4096, 300'000)}));
  ManagerResult dynamo;
  dynamo.name = "dynamo";
  dynamo.host.cpu_count = 1;
  dynamo.timer_resolution_hz = kDynamoTimerHz;
  dynamo.workers.push_back(disk_worker("Worker 1", std::chrono::seconds(10), {dynamo_target("/tmp/d [ext4]", 30, 20, 3'000'000)}));
  run.managers = {agent, dynamo};
  return run;
}

// Rows keyed "TYPE:name", and the header's captions to find columns by name.
struct Block {
  std::vector<std::string> header;
  std::map<std::string, std::vector<std::string>> rows;
  [[nodiscard]] const std::string& at(const std::string& row, std::string_view column) const {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == column) return rows.at(row).at(i);
    }
    throw std::out_of_range(std::string(column));
  }
};

Block parse_block(const std::string& text) {
  Block block;
  for (const std::string& line : split_lines(text)) {
    std::vector<std::string> fields = split_csv(line);
    if (fields.size() < 59) continue;
    if (fields[0] == "'Target Type") {
      block.header = std::move(fields);
    } else if (line.front() != '\'') {
      block.rows.emplace(fields[0] + ":" + fields[1], std::move(fields));
    }
  }
  return block;
}

TEST(DynamoRows, CsvCarriesItsBinsAndTimerResolution) {
  const Block block = parse_block(format_results_block(agent_and_dynamo_run(), access_specs::RecordResults::all));
  ASSERT_FALSE(block.header.empty());
  EXPECT_EQ(block.at("MANAGER:dynamo", "2 to 5 mS"), "50");  // 3 ms
  EXPECT_EQ(block.at("MANAGER:dynamo", "200 to 500 uS"), "0");
  EXPECT_EQ(block.at("MANAGER:agent", "200 to 500 uS"), "100");  // 300 us
  EXPECT_EQ(block.at("ALL:All", "2 to 5 mS"), "50");
  EXPECT_EQ(block.at("ALL:All", "200 to 500 uS"), "100");
  EXPECT_EQ(block.at("MANAGER:dynamo", "Processor Speed"), "2500000000.000000");
  EXPECT_EQ(block.at("WORKER:Worker 1", "Processor Speed"), "1000000000.000000");  // the agent's, first
  // Raw read latency sum in the Dynamo's ticks: 30 reads x 3 ms x 2.5e9/s.
  EXPECT_EQ(block.at("MANAGER:dynamo", "Total Raw Read Response Time"), "225000000");
}

TEST(DynamoRows, JsonLeavesOutPercentilesADynamoCannotGive) {
  SeriesResults series;
  series.runs.push_back(agent_and_dynamo_run());
  const Json json = Json::parse(write_results_json(series));
  const Json& run = json.at("runs").at(0);
  const Json& agent = run.at("managers").at(0).at("summary").at("latency_ns");
  EXPECT_EQ(agent.at("count"), 100);
  EXPECT_EQ(agent.at("p50"), 300'000);
  const Json& dynamo = run.at("managers").at(1).at("summary");
  EXPECT_EQ(dynamo.at("latency_ns").at("count"), 0);  // no I/O timed exactly
  EXPECT_FALSE(dynamo.at("latency_ns").contains("p50"));
  EXPECT_FALSE(dynamo.at("latency_ns").contains("min"));
  EXPECT_EQ(dynamo.at("legacy_bins").at(6), 50);
  EXPECT_DOUBLE_EQ(dynamo.at("average_response_ms").get<double>(), 3.0);  // from the sums: known
  const Json& all = run.at("summary").at("latency_ns");
  EXPECT_EQ(all.at("count"), 100);  // the agent's I/Os alone were timed exactly
  EXPECT_FALSE(all.contains("p99"));  // the percentiles of the agent's part would be invented
  // And the document reads back as the same results.
  const auto read = read_results_json(write_results_json(series));
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);
}

TEST(DynamoRows, RunPointsHaveNoPercentilesForThem) {
  const RunResults run = agent_and_dynamo_run();
  const RunSummary summary = summarize_run(run);
  EXPECT_FALSE(summary.all.counters.latency.percentiles_cover_every_io());
  const LatencyProfile all = latency_profile(summary.all.counters.latency);
  EXPECT_TRUE(all.percentiles.empty());
  EXPECT_EQ(all.bins[6], 50U);
  const LatencyProfile agent = latency_profile(run.managers[0].workers[0].targets[0].counters.latency);
  EXPECT_FALSE(agent.percentiles.empty());
}

}  // namespace
}  // namespace iomark::results
