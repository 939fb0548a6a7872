// Real-world .icf/.conf files (../shared/icf-corpus, IOMARK_ICF_CORPUS_DIR): every one imports and round-trips, and
// each is checked for what it exercises. Expected values were read off the files by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "icf_corpus.hpp"
#include "icf_files.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::icf {
namespace {

namespace fs = std::filesystem;
using access_specs::AccessSpec;
using access_specs::AccessSpecLine;
using access_specs::DefaultAssignment;
using access_specs::StepType;
using access_specs::TestType;
using access_specs::WorkerType;

const fs::path kCorpus = ::iomark::test_support::icf_corpus_dir();

// Skips every test of the suite when the corpus folder is absent.
using IcfCorpus = ::iomark::test_support::IcfCorpusTest;
using test_support::has_warning;
using test_support::slurp;
using test_support::spec_named;

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  if (!fs::is_directory(kCorpus)) return files;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    const auto extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".icf" || extension == ".conf")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Loads one corpus file by name; fails the test if it is missing or does not import.
test_support::Loaded load(std::string_view name) { return test_support::load(kCorpus, name); }

TEST_F(IcfCorpus, DirectoryHoldsFiles) {
  ASSERT_TRUE(fs::is_directory(kCorpus)) << kCorpus << " does not exist";
  EXPECT_GE(corpus_files().size(), 11U);
}

TEST_F(IcfCorpus, EveryFileImportsAndRoundTrips) {
  const auto files = corpus_files();
  ASSERT_FALSE(files.empty()) << "no *.icf or *.conf in " << kCorpus;
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    auto first = read_icf(slurp(path), path.filename().string());
    ASSERT_TRUE(first.has_value()) << first.error().describe();
    const std::string written = write_icf(first->plan);
    auto second = read_icf(written, "rewritten.icf");
    ASSERT_TRUE(second.has_value()) << second.error().describe();
    EXPECT_EQ(second->plan, first->plan);
    EXPECT_EQ(write_icf(second->plan), written);
    // Writing adds no problem of its own: whatever the re-read warns about, the original did too.
    std::set<std::string> original;
    for (const auto& warning : first->warnings) original.insert(warning.message);
    for (const auto& warning : second->warnings) EXPECT_EQ(original.count(warning.message), 1U) << warning.message;
  }
}

// What IOmeter could run, iomark can validate: no imported corpus plan breaks a model rule.
TEST_F(IcfCorpus, EveryImportedPlanValidates) {
  for (const auto& path : corpus_files()) {
    SCOPED_TRACE(path.filename().string());
    const auto imported = read_icf(slurp(path), path.filename().string());
    ASSERT_TRUE(imported.has_value()) << imported.error().describe();
    const auto valid = access_specs::validate(imported->plan);
    EXPECT_TRUE(valid.has_value()) << (valid ? "" : valid.error().describe());
  }
}

TEST_F(IcfCorpus, QuarchIcfHasCrlfAndAFullSpecList) {
  const auto [text, imported] = load("QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__iometer.icf");
  EXPECT_NE(text.find("\r\n"), std::string::npos);
  EXPECT_EQ(imported.version_number, 10000100000ULL);
  EXPECT_TRUE(imported.warnings.empty());
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.setup && plan.display && plan.access_specs && plan.managers);
  EXPECT_EQ(plan.setup->description, "16k Random Read");
  EXPECT_EQ(plan.setup->run_time_s, 15U);
  EXPECT_FALSE(plan.setup->default_disk_workers.count.has_value());
  EXPECT_TRUE(plan.display->record_last_update);
  EXPECT_EQ(plan.display->update_type, access_specs::UpdateType::last_update);
  EXPECT_EQ(plan.access_specs->size(), 31U);
  const auto* all_in_one = spec_named(imported, "All in one");
  ASSERT_NE(all_in_one, nullptr);
  EXPECT_EQ(all_in_one->lines.size(), 29U);
  ASSERT_EQ(plan.managers->size(), 1U);
  const auto& manager = plan.managers->front();
  EXPECT_EQ(manager.name, "ANDY-PC");
  EXPECT_EQ(manager.network_address, "");
  ASSERT_EQ(manager.workers.size(), 4U);
  ASSERT_TRUE(manager.workers[0].targets.has_value());
  EXPECT_EQ(manager.workers[0].targets->front().name, "G: \"QHD004\"");
  ASSERT_TRUE(manager.workers[3].targets.has_value());
  EXPECT_TRUE(manager.workers[3].targets->empty());
  EXPECT_EQ(manager.workers[3].assigned_specs, std::vector<std::string>{"16 KiB; 100% Read; 0% random"});
}

TEST_F(IcfCorpus, QuarchConfIsATemplateWithPlaceholders) {
  const auto [text, imported] =
      load("QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__64k_full_write_full_random.conf");
  EXPECT_NE(text.find("\r\n"), std::string::npos);
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.access_specs && plan.managers);
  EXPECT_EQ(plan.access_specs->size(), 32U);
  const auto* spec = spec_named(imported, "64 KiB; 0% Read; 100% random");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->lines, (std::vector<AccessSpecLine>{{65536, 100, 0, 100, 0, 1, 0, 0}}));
  ASSERT_EQ(plan.managers->size(), 1U);
  EXPECT_EQ(plan.managers->front().name, "[*MANAGER*]");
  ASSERT_EQ(plan.managers->front().workers.size(), 8U);
  for (const auto& worker : plan.managers->front().workers) {
    ASSERT_TRUE(worker.targets.has_value());
    ASSERT_EQ(worker.targets->size(), 1U);
    EXPECT_EQ(worker.targets->front().name, "[*TARGET*]");
  }
}

TEST_F(IcfCorpus, AutotestHasPre110DisplayKeyAndNumberOfCpus) {
  const auto [text, imported] = load("autotest__tp-qemu__iometer.icf");
  EXPECT_EQ(imported.version, "2006.07.27");
  EXPECT_EQ(imported.version_number, 20060727U);
  EXPECT_TRUE(has_warning(imported, 29, "Update Frequency,Update Type"));
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.setup && plan.display && plan.access_specs && plan.managers);
  EXPECT_EQ(plan.setup->description, "");
  EXPECT_FALSE(plan.setup->default_disk_workers.count.has_value());
  EXPECT_EQ(plan.setup->queue_depth_cycling, (access_specs::QueueDepthCycling{1, 128, 2, StepType::exponential}));
  EXPECT_EQ(plan.setup->test_type, TestType::cycle_outstanding_ios_and_targets);
  EXPECT_EQ(plan.display->update_frequency_s, 0U);
  EXPECT_EQ(plan.display->update_type, access_specs::UpdateType::whole_test);
  EXPECT_FALSE(plan.display->record_last_update);
  EXPECT_EQ(plan.access_specs->size(), 38U);
  const auto& manager = plan.managers->front();
  EXPECT_EQ(manager.network_address, "10.66.72.156");
  ASSERT_EQ(manager.workers.size(), 2U);
  const auto& worker = manager.workers[0];
  EXPECT_EQ(worker.outstanding_ios, 1U);
  EXPECT_FALSE(worker.use_fixed_seed);
  ASSERT_TRUE(worker.assigned_specs.has_value());
  EXPECT_EQ(worker.assigned_specs->size(), 16U);
  EXPECT_EQ(worker.assigned_specs->back(), "256K; 100% Write");
  EXPECT_EQ(worker.targets->front().name, "I:local");
}

TEST_F(IcfCorpus, AutotestFourDisksHasAStrayEndTarget) {
  const auto [text, imported] = load("autotest__tp-qemu__iometer_multi_4disks.icf");
  EXPECT_TRUE(has_warning(imported, 271, "stray 'End target'"));
  const auto& workers = imported.plan.managers->front().workers;
  ASSERT_EQ(workers.size(), 2U);
  for (const auto& worker : workers) {
    ASSERT_TRUE(worker.targets.has_value());
    ASSERT_EQ(worker.targets->size(), 4U);
    EXPECT_EQ(worker.targets->at(3).name, "L:local");
  }
}

TEST_F(IcfCorpus, NetworkWorkerTargetsARemoteManager) {
  const auto [text, imported] = load("eilerjc__iometer__network_worker.icf");
  EXPECT_EQ(text.substr(0, text.find('\n')), "Version 1.1.0");  // no trailing space
  EXPECT_EQ(imported.version_number, 10000100000ULL);
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.setup && plan.managers);
  EXPECT_EQ(plan.setup->default_network_workers.count, 1U);
  EXPECT_EQ(plan.setup->default_disk_workers.count, 0U);
  const auto& manager = plan.managers->front();
  EXPECT_EQ(manager.network_address, "TESTNET");
  ASSERT_EQ(manager.workers.size(), 1U);
  const auto& worker = manager.workers.front();
  EXPECT_EQ(worker.type, WorkerType::network_tcp);
  ASSERT_TRUE(worker.targets.has_value());
  ASSERT_EQ(worker.targets->size(), 1U);
  const auto& target = worker.targets->front();
  EXPECT_EQ(target.name, "127.0.0.1");
  EXPECT_EQ(target.type, WorkerType::network_tcp);
  EXPECT_EQ(target.remote_manager_id, 1U);
  EXPECT_EQ(target.remote_manager_name, "TESTMGR");
}

TEST_F(IcfCorpus, OldFormatSpecsGetIometersSmartName) {
  const auto [text, imported] = load("eilerjc__iometer__oldformat_specs.icf");
  EXPECT_EQ(imported.version_number, 19980201U);
  ASSERT_TRUE(imported.plan.access_specs.has_value());
  ASSERT_EQ(imported.plan.access_specs->size(), 1U);
  const auto& spec = imported.plan.access_specs->front();
  EXPECT_EQ(spec.name, "2 KiB random 67% reads");
  EXPECT_EQ(spec.default_assignment, DefaultAssignment::all);
  EXPECT_EQ(spec.lines, (std::vector<AccessSpecLine>{{2048, 100, 67, 100, 0, 1, 0, 0}}));
  const auto& worker = imported.plan.managers->front().workers.front();
  EXPECT_EQ(worker.assigned_specs, std::vector<std::string>{"2 KiB random 67% reads"});
  EXPECT_EQ(worker.targets->front().name, "TEST: Synthetic Disk");
  EXPECT_TRUE(imported.warnings.empty());
}

TEST_F(IcfCorpus, Version32697IsTheSpecialCase) {
  const auto [text, imported] = load("eilerjc__iometer__oltp_32697.icf");
  EXPECT_EQ(imported.version, "3.26.97");
  EXPECT_EQ(imported.version_number, 19980105U);
  // The file holds named specs although 19980105 predates them: read by content, with a warning.
  EXPECT_TRUE(has_warning(imported, 45, "predates named access specifications"));
  ASSERT_NE(spec_named(imported, "64 KiB; 100% Read; 0% random"), nullptr);
}

TEST_F(IcfCorpus, TwoManagers) {
  const auto [text, imported] = load("eilerjc__iometer__two_managers_run.icf");
  const auto& plan = imported.plan;
  ASSERT_TRUE(plan.managers && plan.display && plan.access_specs);
  ASSERT_EQ(plan.managers->size(), 2U);
  EXPECT_EQ(plan.managers->at(0).name, "M1");
  EXPECT_EQ(plan.managers->at(0).id, 1U);
  EXPECT_EQ(plan.managers->at(1).name, "M2");
  EXPECT_EQ(plan.managers->at(1).id, 2U);
  EXPECT_EQ(plan.managers->at(1).workers.front().name, "Worker B");
  EXPECT_EQ(plan.managers->at(1).workers.front().assigned_specs,
            std::vector<std::string>{"4 KiB; 50% Read; 100% random"});
  EXPECT_EQ(plan.display->bar_charts.size(), 1U);
  EXPECT_EQ(plan.access_specs->size(), 2U);
}

TEST_F(IcfCorpus, KochaikaIsSpecOnly) {
  const auto [text, imported] = load("kochaika__iSCSI__iometer.icf");
  EXPECT_EQ(imported.version_number, 20080618U);
  const auto& plan = imported.plan;
  EXPECT_FALSE(plan.setup.has_value());
  EXPECT_FALSE(plan.display.has_value());
  EXPECT_FALSE(plan.managers.has_value());
  ASSERT_TRUE(plan.access_specs.has_value());
  EXPECT_EQ(plan.access_specs->size(), 13U);
  const auto* webserver = spec_named(imported, "Webserver pattern (unknown)");
  ASSERT_NE(webserver, nullptr);
  EXPECT_EQ(webserver->lines.size(), 10U);
  EXPECT_EQ(webserver->lines[7], (AccessSpecLine{66560, 7, 100, 100, 0, 1, 0, 0}));
  EXPECT_EQ(spec_named(imported, "All in one")->lines.size(), 20U);
}

TEST_F(IcfCorpus, KunyiPlaceholderLinesAreDropped) {
  const auto [text, imported] = load("kunyi0605__IOMeter2__RND4K_Q1T1_70RD_30WRT.icf");
  ASSERT_TRUE(imported.plan.access_specs && imported.plan.setup);
  EXPECT_EQ(imported.plan.access_specs->size(), 25U);
  EXPECT_EQ(spec_named(imported, "Default")->lines,
            (std::vector<AccessSpecLine>{{2048, 100, 67, 100, 0, 1, 0, 0}}));
  EXPECT_EQ(spec_named(imported, "All in one")->lines.size(), 20U);
  EXPECT_TRUE(has_warning(imported, 48, "placeholder"));
  EXPECT_EQ(imported.plan.setup->run_time_s, 60U);  // "0          1       0"
  const auto* mixed = spec_named(imported, "4K; 70% Read; 30% Write; 100% random");
  ASSERT_NE(mixed, nullptr);
  EXPECT_EQ(mixed->default_assignment, DefaultAssignment::disk);
  const auto& worker = imported.plan.managers->front().workers.front();
  EXPECT_EQ(worker.targets->front().name, "2: \"( SmartModular ME2 511118C0\"");
}

TEST_F(IcfCorpus, KunyiQueueDepth32EightWorkers) {
  const auto [text, imported] = load("kunyi0605__IOMeter2__RND4K_Q32T8_READ.icf");
  EXPECT_TRUE(imported.warnings.empty());
  ASSERT_TRUE(imported.plan.display && imported.plan.managers);
  EXPECT_EQ(imported.plan.display->update_frequency_s, 3U);
  const auto& workers = imported.plan.managers->front().workers;
  ASSERT_EQ(workers.size(), 8U);
  for (const auto& worker : workers) EXPECT_EQ(worker.outstanding_ios, 32U);
  EXPECT_EQ(workers[0].targets->front().name, "0: \"( SMARTM - PCIE GEN4 SSD FWALPHA\"");
  EXPECT_TRUE(workers[1].targets->empty());
}

}  // namespace
}  // namespace iomark::icf
