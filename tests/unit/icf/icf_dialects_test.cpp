// The project's own file for each .icf dialect the reader accepts (tests/data/icf/ok_*), so the
// dialects are covered without the real-world corpus beside the checkout. Each test pins what
// its file exercises (docs/icf-compatibility.md); expected values were read off the files.
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
using access_specs::AccessSpec;
using access_specs::AccessSpecLine;
using access_specs::DefaultAssignment;
using access_specs::StepType;
using access_specs::TestType;

using test_support::has_warning;
using test_support::spec_named;

const fs::path kData = ::iomark::test_support::test_data_dir() / "icf";

test_support::Loaded load(std::string_view name) { return test_support::load(kData, name); }

TEST(IcfDialects, Windows110PlanWithCrlfAndAPlaceholderLine) {
  const auto [text, imported] = load("ok_110_windows_plan.icf");
  EXPECT_NE(text.find("\r\n"), std::string::npos);
  EXPECT_EQ(imported.version_number, 10000100000ULL);
  ASSERT_EQ(imported.warnings.size(), 1U);
  EXPECT_TRUE(has_warning(imported, 45, "placeholder"));
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.setup && plan.display && plan.access_specs && plan.managers);
  EXPECT_EQ(plan.setup->run_time_s, 60U);
  EXPECT_EQ(plan.setup->default_disk_workers.count, 1U);
  EXPECT_TRUE(plan.display->record_last_update);
  EXPECT_EQ(plan.display->update_frequency_s, 3U);
  EXPECT_EQ(plan.display->update_type, access_specs::UpdateType::last_update);
  const auto* mixed = spec_named(imported, "4K; 70% Read; 30% Write; 100% random");
  ASSERT_NE(mixed, nullptr);
  EXPECT_EQ(mixed->default_assignment, DefaultAssignment::disk);
  EXPECT_EQ(mixed->lines, (std::vector<AccessSpecLine>{{4096, 100, 70, 100, 0, 1, 4096, 0}}));
  ASSERT_EQ(plan.managers->size(), 1U);
  EXPECT_EQ(plan.managers->front().name, "WIN-BENCH");
  const auto& worker = plan.managers->front().workers.at(0);
  EXPECT_EQ(worker.outstanding_ios, 1U);
  ASSERT_TRUE(worker.targets.has_value());
  EXPECT_EQ(worker.targets->front().name, "2: \"( SmartModular SYNTHETIC 0001\"");
}

TEST(IcfDialects, TwoManagersWithoutTrailingSpaceOnTheVersion) {
  const auto [text, imported] = load("ok_110_two_managers.icf");
  EXPECT_EQ(text.substr(0, text.find('\n')), "Version 1.1.0");
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_TRUE(imported.warnings.empty());
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.managers && plan.display && plan.access_specs);
  ASSERT_EQ(plan.managers->size(), 2U);
  EXPECT_EQ(plan.managers->at(0).name, "M1");
  EXPECT_EQ(plan.managers->at(0).network_address, "10.0.0.1");
  EXPECT_EQ(plan.managers->at(1).id, 2U);
  const auto& worker_b = plan.managers->at(1).workers.front();
  EXPECT_EQ(worker_b.name, "Worker B");
  EXPECT_EQ(worker_b.outstanding_ios, 8U);
  EXPECT_EQ(worker_b.assigned_specs, std::vector<std::string>{"4 KiB; 50% Read; 100% random"});
  EXPECT_EQ(plan.managers->at(0).workers.front().targets->front().name, "C: NTFS");
  EXPECT_EQ(plan.display->bar_charts.size(), 1U);
  EXPECT_EQ(plan.access_specs->size(), 2U);
}

TEST(IcfDialects, Version2006DisplayKeyCpusAndStrayEndTarget) {
  const auto [text, imported] = load("ok_2006_cpus_stray_end.icf");
  EXPECT_EQ(imported.version, "2006.07.27");
  EXPECT_EQ(imported.version_number, 20060727U);
  EXPECT_TRUE(has_warning(imported, 29, "Update Frequency,Update Type"));
  EXPECT_TRUE(has_warning(imported, 78, "stray 'End target'"));
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.setup && plan.display && plan.access_specs && plan.managers);
  EXPECT_EQ(plan.setup->description, "");
  EXPECT_FALSE(plan.setup->default_disk_workers.count.has_value());  // NUMBER_OF_CPUS
  EXPECT_EQ(plan.setup->queue_depth_cycling, (access_specs::QueueDepthCycling{1, 128, 2, StepType::exponential}));
  EXPECT_EQ(plan.setup->test_type, TestType::cycle_outstanding_ios_and_targets);
  EXPECT_EQ(plan.display->update_frequency_s, 0U);
  EXPECT_EQ(plan.display->update_type, access_specs::UpdateType::whole_test);
  EXPECT_FALSE(plan.display->record_last_update);
  const auto& manager = plan.managers->front();
  EXPECT_EQ(manager.network_address, "192.0.2.10");
  ASSERT_EQ(manager.workers.size(), 2U);
  for (const auto& worker : manager.workers) {
    ASSERT_TRUE(worker.targets.has_value());
    EXPECT_EQ(worker.targets->size(), 2U);
  }
  EXPECT_EQ(manager.workers[1].targets->back().name, "L:local");
  EXPECT_EQ(manager.workers[0].assigned_specs->back(), "256K; 100% Write");
}

TEST(IcfDialects, Version2008SpecsOnly) {
  const auto [text, imported] = load("ok_2008_specs_only.icf");
  EXPECT_EQ(imported.version_number, 20080618U);
  const auto& plan = imported.plan;
  EXPECT_FALSE(plan.setup.has_value());
  EXPECT_FALSE(plan.display.has_value());
  EXPECT_FALSE(plan.managers.has_value());
  ASSERT_TRUE(plan.access_specs.has_value());
  EXPECT_EQ(plan.access_specs->size(), 2U);
  const auto* webserver = spec_named(imported, "Webserver pattern (synthetic)");
  ASSERT_NE(webserver, nullptr);
  ASSERT_EQ(webserver->lines.size(), 4U);
  EXPECT_EQ(webserver->lines[3], (AccessSpecLine{65536, 23, 100, 100, 0, 1, 0, 0}));
  EXPECT_EQ(spec_named(imported, "All in one")->default_assignment, DefaultAssignment::all);
}

TEST(IcfDialects, Version32697IsTheSpecialCase) {
  const auto [text, imported] = load("ok_32697_named_specs.icf");
  EXPECT_EQ(imported.version, "3.26.97");
  EXPECT_EQ(imported.version_number, 19980105U);
  // Named specs although 19980105 predates them: read by content, with a warning.
  EXPECT_TRUE(has_warning(imported, 17, "predates named access specifications"));
  ASSERT_NE(spec_named(imported, "64 KiB; 100% Read; 0% random"), nullptr);
}

TEST(IcfDialects, UnnamedSixColumnSpecGetsIometersSmartName) {
  const auto [text, imported] = load("ok_19980201_unnamed_spec.icf");
  EXPECT_EQ(imported.version_number, 19980201U);
  EXPECT_TRUE(imported.warnings.empty());
  ASSERT_TRUE(imported.plan.access_specs.has_value());
  ASSERT_EQ(imported.plan.access_specs->size(), 1U);
  const auto& spec = imported.plan.access_specs->front();
  EXPECT_EQ(spec.name, "2 KiB random 67% reads");
  EXPECT_EQ(spec.default_assignment, DefaultAssignment::all);
  EXPECT_EQ(spec.lines, (std::vector<AccessSpecLine>{{2048, 100, 67, 100, 0, 1, 0, 0}}));
  const auto& worker = imported.plan.managers->front().workers.front();
  EXPECT_EQ(worker.assigned_specs, std::vector<std::string>{"2 KiB random 67% reads"});
  EXPECT_EQ(worker.targets->front().name, "TEST: Synthetic Disk");
}

}  // namespace
}  // namespace iomark::icf
