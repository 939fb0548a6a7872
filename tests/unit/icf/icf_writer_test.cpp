// The writer: the §1.9 example byte for byte, and the 1.1.0 layout rules of §1.3-§1.7.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "icf_test_support.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::icf {
namespace {

using access_specs::AccessSpec;
using access_specs::AccessSpecLine;
using access_specs::DataPattern;
using access_specs::DefaultAssignment;
using access_specs::Manager;
using access_specs::StepType;
using access_specs::Target;
using access_specs::TestPlan;
using access_specs::TestSetup;
using access_specs::TestType;
using access_specs::Worker;
using access_specs::WorkerType;
using test::kSpecExample;
using test::read_ok;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(IcfWriter, SpecExampleReadThenWrittenIsByteIdentical) {
  const auto imported = read_ok(kSpecExample);
  EXPECT_TRUE(imported.warnings.empty());
  EXPECT_EQ(write_icf(imported.plan), std::string(kSpecExample));
}

TEST(IcfWriter, SpecExampleWithCrlfLineEndsIsWrittenWithLf) {
  std::string crlf;
  for (const char c : kSpecExample) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const auto imported = read_ok(crlf);
  EXPECT_TRUE(imported.warnings.empty());
  EXPECT_EQ(write_icf(imported.plan), std::string(kSpecExample));
}

// Values taken from the example text by hand, not from the reader's output.
TEST(IcfWriter, SpecExampleModel) {
  const auto imported = read_ok(kSpecExample);
  EXPECT_EQ(imported.version, "1.1.0");
  EXPECT_EQ(imported.version_number, 10000100000ULL);
  const TestPlan& plan = imported.plan;
  ASSERT_TRUE(plan.setup && plan.display && plan.access_specs && plan.managers);

  const TestSetup& setup = *plan.setup;
  EXPECT_EQ(setup.description, "Nightly 4K random sweep");
  EXPECT_EQ(setup.run_time_s, 90U);
  EXPECT_EQ(setup.ramp_up_s, 15U);
  EXPECT_FALSE(setup.default_disk_workers.count.has_value());
  EXPECT_EQ(setup.default_network_workers.count, 0U);
  EXPECT_EQ(setup.record_results, access_specs::RecordResults::all);
  EXPECT_EQ(setup.queue_depth_cycling, (access_specs::QueueDepthCycling{1, 32, 2, StepType::exponential}));
  EXPECT_EQ(setup.test_type, TestType::cycle_outstanding_ios);

  const auto& display = *plan.display;
  EXPECT_FALSE(display.record_last_update);
  EXPECT_EQ(display.update_frequency_s, 5U);
  EXPECT_EQ(display.update_type, access_specs::UpdateType::whole_test);
  ASSERT_EQ(display.bar_charts.size(), 6U);
  EXPECT_EQ(display.bar_charts[1].manager_id, 1U);
  EXPECT_EQ(display.bar_charts[1].manager_name, "hostA");
  EXPECT_FALSE(display.bar_charts[1].worker_id.has_value());
  EXPECT_EQ(display.bar_charts[2].worker_name, "Worker 1");
  EXPECT_EQ(display.bar_charts[5].statistic, "Total Error Count");

  const auto& specs = *plan.access_specs;
  ASSERT_EQ(specs.size(), 4U);
  EXPECT_EQ(specs[1].name, "OLTP 8K mix");
  EXPECT_EQ(specs[1].default_assignment, DefaultAssignment::disk);
  ASSERT_EQ(specs[1].lines.size(), 2U);
  EXPECT_EQ(specs[1].lines[1], (AccessSpecLine{65536, 30, 100, 0, 0, 1, 0, 0}));
  EXPECT_EQ(specs[2].lines[0], (AccessSpecLine{4096, 100, 0, 50, 20, 8, 4096, 0}));
  EXPECT_EQ(specs[3].default_assignment, DefaultAssignment::network);
  EXPECT_EQ(specs[3].lines[0].reply_bytes, 512U);

  const auto& managers = *plan.managers;
  ASSERT_EQ(managers.size(), 2U);
  EXPECT_EQ(managers[0].name, "hostA");
  EXPECT_EQ(managers[0].network_address, "192.0.2.10");
  ASSERT_EQ(managers[0].workers.size(), 2U);
  const Worker& disk = managers[0].workers[0];
  EXPECT_EQ(disk.outstanding_ios, 16U);
  EXPECT_TRUE(disk.use_fixed_seed);
  EXPECT_EQ(disk.fixed_seed, 12345U);
  EXPECT_EQ(disk.maximum_disk_size_sectors, 2097152U);
  EXPECT_EQ(disk.data_pattern, DataPattern::full_random);
  EXPECT_EQ(disk.assigned_specs, (std::vector<std::string>{"OLTP 8K mix", "Bursty writes"}));
  ASSERT_TRUE(disk.targets.has_value());
  ASSERT_EQ(disk.targets->size(), 2U);
  EXPECT_EQ((*disk.targets)[1].name, "/data [xfs]");
  const Worker& net = managers[0].workers[1];
  EXPECT_EQ(net.type, WorkerType::network_tcp);
  EXPECT_TRUE(net.test_connection_rate);
  EXPECT_EQ(net.transactions_per_connection, 100U);
  EXPECT_EQ(net.local_network_interface, "192.0.2.10");
  ASSERT_TRUE(net.targets.has_value());
  const Target& remote = net.targets->front();
  EXPECT_EQ(remote.name, "192.0.2.20");
  EXPECT_EQ(remote.type, WorkerType::network_tcp);
  EXPECT_EQ(remote.remote_manager_id, 1U);
  EXPECT_EQ(remote.remote_manager_name, "hostB");
  EXPECT_EQ(managers[1].workers[0].starting_sector, 2048U);
}

TEST(IcfWriter, EmptyPlanIsJustTheVersionLines) {
  EXPECT_EQ(write_icf(TestPlan{}), "Version 1.1.0 \nVersion 1.1.0 \n");
}

TEST(IcfWriter, WritesOnlyTheSectionsThePlanHolds) {
  TestPlan plan;
  plan.access_specs = std::vector<AccessSpec>{{"Only", DefaultAssignment::all, {AccessSpecLine{}}}};
  EXPECT_EQ(write_icf(plan),
            "Version 1.1.0 \n"
            "'ACCESS SPECIFICATIONS =========================================================\n"
            "'Access specification name,default assignment\n"
            "\tOnly,ALL\n"
            "'size,% of size,% reads,% random,delay,burst,align,reply\n"
            "\t2048,100,67,100,0,1,0,0\n"
            "'END access specifications\n"
            "Version 1.1.0 \n");
}

TEST(IcfWriter, SectionHeadersAreEightyCharacters) {
  TestPlan plan;
  plan.setup = TestSetup{};
  plan.display = access_specs::ResultsDisplay{};
  plan.access_specs = std::vector<AccessSpec>{};
  plan.managers = std::vector<Manager>{};
  int headers = 0;
  for (const auto& line : lines_of(write_icf(plan))) {
    if (line.find(" ===") == std::string::npos) continue;
    ++headers;
    EXPECT_EQ(line.size(), 80U) << line;
    EXPECT_EQ(line.back(), '=');
  }
  EXPECT_EQ(headers, 4);
}

TEST(IcfWriter, RunTimeAndCyclingUseElevenCharacterColumns) {
  TestPlan plan;
  TestSetup setup;
  setup.run_time_s = 2 * 3600 + 3 * 60 + 4;
  setup.worker_cycling = {4294967295U, 7, StepType::linear};
  setup.queue_depth_cycling = {1, 256, 4, StepType::exponential};
  setup.default_disk_workers.count = 3;
  setup.test_type = TestType::increment_targets_serial;
  setup.record_results = access_specs::RecordResults::no_workers;
  plan.setup = setup;
  const auto text = write_icf(plan);
  EXPECT_NE(text.find("'Run Time\n'\thours      minutes    seconds\n\t2          3          4\n"), std::string::npos);
  EXPECT_NE(text.find("'Worker Cycling\n'\tstart      step       step type\n\t4294967295 7          LINEAR\n"),
            std::string::npos);
  EXPECT_NE(text.find("\t1          256        4          EXPONENTIAL\n"), std::string::npos);
  EXPECT_NE(text.find("'Default Disk Workers to Spawn\n\t3\n"), std::string::npos);
  EXPECT_NE(text.find("'Test Type\n\tINCREMENT_TARGETS_SERIAL\n"), std::string::npos);
  EXPECT_NE(text.find("'Record Results\n\tNO_WORKERS\n"), std::string::npos);
}

TEST(IcfWriter, FixedSeedIsWrittenEvenWhenDisabled) {
  TestPlan plan;
  Worker worker;
  worker.name = "W";
  worker.outstanding_ios = 4;
  worker.fixed_seed = 777;
  plan.managers = std::vector<Manager>{{1, "m", "", {worker}}};
  EXPECT_NE(write_icf(plan).find("fixed seed value\n\t4,DISABLED,1,DISABLED,777\n"), std::string::npos);
}

TEST(IcfWriter, DiskLineOnlyForDiskWorkers) {
  Worker disk;
  disk.name = "D";
  Worker network;
  network.name = "N";
  network.type = WorkerType::network_tcp;
  TestPlan plan;
  plan.managers = std::vector<Manager>{{1, "m", "", {disk, network}}};
  const auto text = write_icf(plan);
  const auto network_at = text.find("\tN\n");
  ASSERT_NE(network_at, std::string::npos);
  EXPECT_NE(text.rfind("'Disk maximum size,starting sector,Data pattern\n\t0,0,0\n", network_at), std::string::npos);
  EXPECT_EQ(text.find("'Disk maximum size", network_at), std::string::npos);
  EXPECT_NE(text.find("'Local network interface\n\t\n", network_at), std::string::npos);
  EXPECT_EQ(text.rfind("'Local network interface", network_at), std::string::npos);
}

TEST(IcfWriter, AbsentBlocksAreNotWrittenAndEmptyOnesAre) {
  Worker without;
  without.name = "without";
  Worker with_empty = without;
  with_empty.name = "empty";
  with_empty.assigned_specs = std::vector<std::string>{};
  with_empty.targets = std::vector<Target>{};
  TestPlan plan;
  plan.managers = std::vector<Manager>{{1, "m", "", {without, with_empty}}};
  const auto text = write_icf(plan);
  const auto second = text.find("\tempty\n");
  ASSERT_NE(second, std::string::npos);
  EXPECT_EQ(text.rfind("'Assigned access specs", second), std::string::npos);
  EXPECT_NE(text.find("'Assigned access specs\n'End assigned access specs\n", second), std::string::npos);
  EXPECT_NE(text.find("'Target assignments\n'End target assignments\n", second), std::string::npos);
}

TEST(IcfWriter, LineBreaksInsideValuesBecomeSpaces) {
  TestPlan plan;
  TestSetup setup;
  setup.description = "two\nlines\r\nhere";
  plan.setup = setup;
  const auto imported = read_ok(write_icf(plan));
  ASSERT_TRUE(imported.plan.setup.has_value());
  EXPECT_EQ(imported.plan.setup->description, "two lines  here");
}

}  // namespace
}  // namespace iomark::icf
