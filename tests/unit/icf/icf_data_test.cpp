// Hand-written edge-case files in tests/data/icf: ok_* import and round-trip, bad_* fail with
// a located error. Expected values come from the files as written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "icf_files.hpp"
#include "iomark/icf/icf.hpp"
#include "test_paths.hpp"

namespace iomark::icf {
namespace {

namespace fs = std::filesystem;
using access_specs::AccessSpecLine;
using access_specs::WorkerType;

const fs::path kData = ::iomark::test_support::test_data_dir() / "icf";

using test_support::slurp;

Result<IcfImport> read_data(std::string_view name) {
  const fs::path path = kData / std::string(name);
  EXPECT_TRUE(fs::is_regular_file(path)) << path;
  return read_icf(slurp(path), name);
}

TEST(IcfData, OkFilesRoundTripAndBadFilesFail) {
  ASSERT_TRUE(fs::is_directory(kData)) << kData;
  int ok = 0;
  int bad = 0;
  for (const auto& entry : fs::directory_iterator(kData)) {
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    const auto result = read_icf(slurp(entry.path()), name);
    if (name.rfind("ok_", 0) == 0) {
      ++ok;
      ASSERT_TRUE(result.has_value()) << result.error().describe();
      const auto again = read_icf(write_icf(result->plan), "again.icf");
      ASSERT_TRUE(again.has_value()) << again.error().describe();
      EXPECT_EQ(again->plan, result->plan);
    } else if (name.rfind("bad_", 0) == 0) {
      ++bad;
      ASSERT_FALSE(result.has_value());
      EXPECT_EQ(result.error().location().file, name);
      EXPECT_GT(result.error().location().line, 0U);
      EXPECT_FALSE(result.error().field().empty());
    }
  }
  EXPECT_GE(ok, 2);
  EXPECT_GE(bad, 1);
}

TEST(IcfData, Legacy1998File) {
  const auto result = read_data("ok_1998_legacy.icf");
  ASSERT_TRUE(result.has_value()) << result.error().describe();
  EXPECT_EQ(result->version_number, 19980310U);
  const auto& plan = result->plan;
  ASSERT_TRUE(plan.setup && plan.display && plan.access_specs && plan.managers);
  EXPECT_EQ(plan.setup->run_time_s, 75U * 60);
  EXPECT_EQ(plan.setup->ramp_up_s, 5U);
  EXPECT_FALSE(plan.setup->default_disk_workers.count.has_value());
  EXPECT_EQ(plan.setup->record_results, access_specs::RecordResults::no_targets);
  EXPECT_EQ(plan.display->update_frequency_s, 2U);
  ASSERT_EQ(plan.display->bar_charts.size(), 1U);
  EXPECT_EQ(plan.display->bar_charts[0].statistic, "Total I/Os per Second");
  ASSERT_EQ(plan.access_specs->size(), 2U);
  EXPECT_EQ(plan.access_specs->at(0).name, "Untitled 1");
  EXPECT_EQ(plan.access_specs->at(0).lines,
            (std::vector<AccessSpecLine>{{512, 25, 100, 0, 0, 1, 0, 0}, {4096, 75, 0, 100, 0, 1, 0, 0}}));
  EXPECT_EQ(plan.access_specs->at(1).name, "64 KiB 50% random 50% reads");
  const auto& worker = plan.managers->front().workers.front();
  EXPECT_EQ(worker.outstanding_ios, 4U);
  EXPECT_EQ(worker.assigned_specs, (std::vector<std::string>{"Untitled 1", "64 KiB 50% random 50% reads"}));
  ASSERT_EQ(result->warnings.size(), 1U);
  EXPECT_EQ(result->warnings[0].line, 17U);
}

TEST(IcfData, NetworkAndViWorkersWithCrlf) {
  const auto result = read_data("ok_2004_network_vi.icf");
  ASSERT_TRUE(result.has_value()) << result.error().describe();
  const auto& plan = result->plan;
  ASSERT_TRUE(plan.setup && plan.access_specs && plan.managers);
  EXPECT_FALSE(plan.display.has_value());
  EXPECT_EQ(plan.setup->default_network_workers.count, 2U);
  ASSERT_EQ(plan.managers->size(), 2U);
  const auto& manager = plan.managers->front();
  EXPECT_EQ(manager.name, "[*MANAGER*]");
  ASSERT_EQ(manager.workers.size(), 2U);
  const auto& tcp = manager.workers[0];
  EXPECT_EQ(tcp.type, WorkerType::network_tcp);
  EXPECT_TRUE(tcp.test_connection_rate);
  EXPECT_EQ(tcp.transactions_per_connection, 50U);
  EXPECT_EQ(tcp.local_network_interface, "192.0.2.1");
  EXPECT_EQ(tcp.assigned_specs, std::vector<std::string>{"Ping 512"});  // spelled as the spec is
  const auto& vi = manager.workers[1];
  EXPECT_EQ(vi.type, WorkerType::network_vi);
  EXPECT_EQ(vi.vi_outstanding_ios, 16U);
  EXPECT_FALSE(vi.assigned_specs.has_value());
  ASSERT_TRUE(vi.targets.has_value());
  EXPECT_EQ(vi.targets->front().type, WorkerType::network_vi);
  EXPECT_EQ(vi.targets->front().remote_manager_name, "peer");
  EXPECT_TRUE(plan.managers->at(1).workers.empty());
  const auto warned_at = [&](std::uint64_t line) {
    return std::any_of(result->warnings.begin(), result->warnings.end(),
                       [&](const Warning& warning) { return warning.line == line; });
  };
  EXPECT_TRUE(warned_at(5));   // blank line where a key belongs
  EXPECT_TRUE(warned_at(16));  // unknown section
}

TEST(IcfData, TruncatedWorker) {
  const auto result = read_data("bad_truncated_worker.icf");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().location().line, 18U);
  EXPECT_EQ(result.error().field(),
            "Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value");
}

}  // namespace
}  // namespace iomark::icf
