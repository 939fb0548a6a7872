// The reader's dialects: every historic form of the file IOmeter wrote, and the leniencies
// (each with a warning) where IOmeter 1.1.0 would reject a file we accept.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "icf_test_support.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::icf {
namespace {

using access_specs::AccessSpecLine;
using access_specs::DefaultAssignment;
using access_specs::RecordResults;
using access_specs::StepType;
using access_specs::TestType;
using access_specs::WorkerType;
using test::file_with;
using test::read_ok;

bool warned(const IcfImport& imported, std::uint64_t line, std::string_view fragment) {
  return std::any_of(imported.warnings.begin(), imported.warnings.end(), [&](const Warning& warning) {
    return warning.line == line && warning.message.find(fragment) != std::string::npos;
  });
}

std::string setup_section(std::string_view keys) {
  return "'TEST SETUP ====================================================================\n" + std::string(keys) +
         "'END test setup\n";
}

std::string spec_section(std::string_view body) {
  return "'ACCESS SPECIFICATIONS =========================================================\n" + std::string(body) +
         "'END access specifications\n";
}

std::string named_spec(std::string_view name_line, std::string_view lines) {
  return "'Access specification name,default assignment\n\t" + std::string(name_line) +
         "\n'size,% of size,% reads,% random,delay,burst,align,reply\n" + std::string(lines);
}

std::string manager_section(std::string_view workers, std::string_view name = "1,host") {
  return "'MANAGER LIST ==================================================================\n"
         "'Manager ID, manager name\n\t" +
         std::string(name) + "\n'Manager network address\n\t\n" + std::string(workers) +
         "'End manager\n'END manager list\n";
}

std::string worker(std::string_view type, std::string_view settings, std::string_view rest = "") {
  return "'Worker\n\tW\n'Worker type\n\t" + std::string(type) + "\n'Default target settings for worker\n" +
         std::string(settings) + "'End default target settings for worker\n" + std::string(rest) + "'End worker\n";
}

constexpr std::string_view kDefaults =
    "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value\n"
    "\t1,DISABLED,1,DISABLED,0\n";

// --- version line (docs/iometer-reference.md#icf-version) ---------------------------------

struct VersionCase {
  std::string_view line;
  std::string_view version;
  std::uint64_t number;
};

TEST(IcfReaderVersion, HistoricVersionStrings) {
  const VersionCase cases[] = {
      {"Version 1998.10.08 ", "1998.10.08", 19981008},
      {"Version 2004.07.30 ", "2004.07.30", 20040730},
      {"Version 2006.07.27", "2006.07.27", 20060727},
      {"Version 2008.06.18-RC2 ", "2008.06.18-RC2", 20080618},
      {"Version 2003.12.16-post ", "2003.12.16-post", 20031216},
      {"Version 1.1.0 ", "1.1.0", 10000100000ULL},
      {"Version 1.1.0 DEBUG ", "1.1.0 DEBUG", 10000100000ULL},
      {"Version 1.2.3", "1.2.3", 10000200003ULL},
      {"Version 3.26.97 ", "3.26.97", 19980105},
      {"VERSION 2006.07.27 ", "2006.07.27", 20060727},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.line);
    const auto imported = read_ok(std::string(c.line) + "\n");
    EXPECT_EQ(imported.version, c.version);
    EXPECT_EQ(imported.version_number, c.number);
    EXPECT_EQ(imported.plan, access_specs::TestPlan{});
    EXPECT_TRUE(imported.warnings.empty());
  }
}

TEST(IcfReaderVersion, OlderThan19980105IsReadWithAWarning) {
  const auto imported = read_ok("Version 1997.12.31\n");
  EXPECT_EQ(imported.version_number, 19971231U);
  EXPECT_TRUE(warned(imported, 1, "older than 1998.01.05"));
}

TEST(IcfReaderVersion, UsersGuideApostropheAndLeadingBlankLinesAndBom) {
  const auto imported = read_ok("\xEF\xBB\xBF\n\n'Version 2006.07.27\n");
  EXPECT_EQ(imported.version_number, 20060727U);
  EXPECT_EQ(imported.warnings.size(), 3U);  // two blank lines and the apostrophe; the BOM is silent
  EXPECT_TRUE(warned(imported, 2, "blank line before the version line"));
  EXPECT_TRUE(warned(imported, 3, "apostrophe"));
}

// --- TEST SETUP (§1.4) ------------------------------------------------------------------------

TEST(IcfReaderSetup, RunTimeMinutesAboveFiftyNineAreConverted) {
  const auto imported = read_ok(file_with(setup_section("'Run Time\n'\thours      minutes    seconds\n\t1 90 75\n")));
  ASSERT_TRUE(imported.plan.setup.has_value());
  EXPECT_EQ(imported.plan.setup->run_time_s, 3600U + 90 * 60 + 75);
  EXPECT_TRUE(imported.warnings.empty());
}

TEST(IcfReaderSetup, NumericEnumerationsAndAnyCase) {
  const auto imported = read_ok(file_with(setup_section(
      "'Record Results\n\t3\n"
      "'Test Type\n\t5\n"
      "'Worker Cycling\n\t2 3 1\n"
      "'Disk Cycling\n\t4,5,linear\n"
      "'Queue Depth Cycling\n\t1 64 2 Exponential\n")));
  ASSERT_TRUE(imported.plan.setup.has_value());
  const auto& setup = *imported.plan.setup;
  EXPECT_EQ(setup.record_results, RecordResults::no_managers);
  EXPECT_EQ(setup.test_type, TestType::cycle_workers_and_targets);
  EXPECT_EQ(setup.worker_cycling, (access_specs::Cycling{2, 3, StepType::exponential}));
  EXPECT_EQ(setup.target_cycling, (access_specs::Cycling{4, 5, StepType::linear}));
  EXPECT_EQ(setup.queue_depth_cycling, (access_specs::QueueDepthCycling{1, 64, 2, StepType::exponential}));
  EXPECT_TRUE(imported.warnings.empty());
}

TEST(IcfReaderSetup, WorkersToSpawnForms) {
  const auto imported = read_ok(file_with(setup_section(
      "'Default Disk Workers to Spawn\n\t-1\n"
      "'Default Network Workers to Spawn\n\tnumber_of_cpus\n")));
  ASSERT_TRUE(imported.plan.setup.has_value());
  EXPECT_FALSE(imported.plan.setup->default_disk_workers.count.has_value());
  EXPECT_FALSE(imported.plan.setup->default_network_workers.count.has_value());

  const auto legacy_zero = read_ok(file_with(setup_section("'Default Workers to Spawn\n\t0\n"), "1998.10.08"));
  EXPECT_FALSE(legacy_zero.plan.setup->default_disk_workers.count.has_value());
  EXPECT_TRUE(legacy_zero.warnings.empty());
  const auto legacy_four = read_ok(file_with(setup_section("'Default Workers to Spawn\n\t4\n"), "1998.10.08"));
  EXPECT_EQ(legacy_four.plan.setup->default_disk_workers.count, 4U);
}

TEST(IcfReaderSetup, RampUpPrefixAndCaseInsensitiveKeys) {
  const auto imported = read_ok(file_with(
      "'test setup ===\n'TEST DESCRIPTION\n\tMixed Case Value\n'Ramp Up Time\n\t30\n'end TEST setup\n"));
  ASSERT_TRUE(imported.plan.setup.has_value());
  EXPECT_EQ(imported.plan.setup->description, "Mixed Case Value");
  EXPECT_EQ(imported.plan.setup->ramp_up_s, 30U);
}

TEST(IcfReaderSetup, EmptyDescriptionAndBlankLines) {
  const std::string text = file_with(setup_section(
      "'Test Description\n"  // line 3
      "\n"                   // 4: empty value, as IOmeter reads it
      "'Ramp Up Time (s)\n"  // 5
      "\n"                   // 6: blank between key and value
      "\t7\n"                // 7
      "\n"                   // 8: blank where a key belongs
      "'Test Type\n\tNORMAL\n"));
  const auto imported = read_ok(text);
  ASSERT_TRUE(imported.plan.setup.has_value());
  EXPECT_EQ(imported.plan.setup->description, "");
  EXPECT_EQ(imported.plan.setup->ramp_up_s, 7U);
  EXPECT_TRUE(warned(imported, 6, "blank line between"));
  EXPECT_TRUE(warned(imported, 8, "blank line ignored"));
  EXPECT_EQ(imported.warnings.size(), 2U);
}

TEST(IcfReaderSetup, UnknownKeyIsSkippedWithAWarning) {
  const auto imported =
      read_ok(file_with(setup_section("'Suspend Test\n\tYES\n'Ramp Up Time (s)\n\t5\n")));
  ASSERT_TRUE(imported.plan.setup.has_value());
  EXPECT_EQ(imported.plan.setup->ramp_up_s, 5U);
  EXPECT_TRUE(warned(imported, 3, "unknown key 'Suspend Test'"));
}

TEST(IcfReaderSetup, AncientFileWithoutEndMarkerStopsAtUnknownKey) {
  const std::string text =
      "Version 1998.10.08 \n"
      "'TEST SETUP ====================================================================\n"
      "'Test Description\n\tancient\n"
      "'Ramp Up Time (s)\n\t3\n"
      "'Some 1998 key\n\t9\n"
      "'RESULTS DISPLAY ===============================================================\n"
      "'Update Frequency,Update Type\n\t5,LAST_UPDATE\n'END results display\n";
  const auto imported = read_ok(text);
  ASSERT_TRUE(imported.plan.setup && imported.plan.display);
  EXPECT_EQ(imported.plan.setup->description, "ancient");
  EXPECT_EQ(imported.plan.setup->ramp_up_s, 3U);
  EXPECT_TRUE(warned(imported, 7, "ends TEST SETUP"));
  EXPECT_EQ(imported.plan.display->update_frequency_s, 5U);
}

// --- RESULTS DISPLAY (§1.5) -------------------------------------------------------------------

TEST(IcfReaderDisplay, OldAndNewFirstKey) {
  const auto old_key = read_ok(
      file_with("'RESULTS DISPLAY ===\n'Update Frequency,Update Type\n\t10,LAST_UPDATE\n'END results display\n"));
  ASSERT_TRUE(old_key.plan.display.has_value());
  EXPECT_EQ(old_key.plan.display->update_frequency_s, 10U);
  EXPECT_EQ(old_key.plan.display->update_type, access_specs::UpdateType::last_update);
  EXPECT_FALSE(old_key.plan.display->record_last_update);
  EXPECT_TRUE(warned(old_key, 3, "Update Frequency,Update Type"));

  const auto new_key = read_ok(file_with(
      "'RESULTS DISPLAY ===\n'Record Last Update Results,Update Frequency,Update Type\n\tenabled,45,whole_test\n"
      "'END results display\n"));
  EXPECT_TRUE(new_key.plan.display->record_last_update);
  EXPECT_EQ(new_key.plan.display->update_frequency_s, 45U);
  EXPECT_TRUE(new_key.warnings.empty());
}

TEST(IcfReaderDisplay, BarChartLeniencies) {
  const auto imported = read_ok(file_with(
      "'RESULTS DISPLAY ===\n"
      "'Record Last Update Results,Update Frequency,Update Type\n\tDISABLED,7,WHOLE_TEST\n"  // 3-4
      "'Bar chart 7 statistic\n\tTotal I/Os per Second\n"                                    // 5-6
      "'Bar chart 2 colour\n\tred\n"                                                         // 7-8
      "'Bar chart 2 statistic\n\tread i/os per second\n"                                     // 9-10
      "'Bar chart 2 worker ID, worker name\n\t2,Worker 3\n"                                  // 11-12
      "'END results display\n"));
  const auto& display = *imported.plan.display;
  EXPECT_EQ(display.update_frequency_s, 0U);
  EXPECT_TRUE(warned(imported, 4, "update frequency 7"));
  EXPECT_TRUE(warned(imported, 5, "1 to 6"));
  EXPECT_TRUE(warned(imported, 7, "unknown key"));
  ASSERT_EQ(display.bar_charts.size(), 1U);
  EXPECT_EQ(display.bar_charts[0].number, 2U);
  EXPECT_EQ(display.bar_charts[0].statistic, "Read I/Os per Second");
  EXPECT_FALSE(display.bar_charts[0].manager_id.has_value());
  EXPECT_EQ(display.bar_charts[0].worker_id, 2U);
  EXPECT_EQ(display.bar_charts[0].worker_name, "Worker 3");
}

// --- ACCESS SPECIFICATIONS (§1.6) ---------------------------------------------------------------

TEST(IcfReaderSpecs, OldSixColumnFormatAccumulatesAndNamesSpecs) {
  const std::string text =
      "Version 1998.02.01 \n"
      "'ACCESS SPECIFICATIONS =========================================================\n"
      "'size, % of size, % reads, % random, delay, burst\n"
      "512 50 100 0 0 1\n"           // 4: "Untitled 1", first line
      "4096\t50\t0\t100\t5\t2\n"     // 5: second line, sums to 100
      "1048576 100 100 0 0 1\n"      // 6: "1 MiB sequential reads"
      "8192 0 50 50 0 1\n"           // 7: 0 % of size, dropped
      "1536 100 50 30 0 1\n"         // 8: "1 KiB 30% random 50% reads"
      "2048 100 67 100 0 1\n"        // 9: "2 KiB random 67% reads"
      "2048 100 67 100 10 4\n"       // 10: same name taken -> " 2"
      "65536 40 0 0 0 1\n"           // 11: never reaches 100, dropped
      "'MANAGER LIST ==================================================================\n"
      "'END manager list\n";
  const auto imported = read_ok(text);
  ASSERT_TRUE(imported.plan.access_specs.has_value());
  const auto& specs = *imported.plan.access_specs;
  ASSERT_EQ(specs.size(), 5U);
  EXPECT_EQ(specs[0].name, "Untitled 1");
  EXPECT_EQ(specs[0].lines, (std::vector<AccessSpecLine>{{512, 50, 100, 0, 0, 1, 0, 0}, {4096, 50, 0, 100, 5, 2, 0, 0}}));
  EXPECT_EQ(specs[1].name, "1 MiB sequential reads");
  EXPECT_EQ(specs[2].name, "1 KiB 30% random 50% reads");
  EXPECT_EQ(specs[3].name, "2 KiB random 67% reads");
  EXPECT_EQ(specs[4].name, "2 KiB random 67% reads 2");
  EXPECT_EQ(specs[4].lines[0].burst_transactions, 4U);
  for (const auto& spec : specs) EXPECT_EQ(spec.default_assignment, DefaultAssignment::all);
  EXPECT_TRUE(warned(imported, 7, "0 % of size"));
  EXPECT_TRUE(warned(imported, 11, "adds up to 40"));
  EXPECT_TRUE(imported.plan.managers.has_value());
}

TEST(IcfReaderSpecs, FormatThresholdIs19980521) {
  const std::string old_body = "'size, % of size, % reads, % random, delay, burst\n4096 100 0 0 0 1\n";
  const auto old_format = read_ok(file_with(spec_section(old_body), "1998.05.20"));
  ASSERT_TRUE(old_format.plan.access_specs.has_value());
  EXPECT_EQ(old_format.plan.access_specs->front().name, "4 KiB sequential writes");

  const std::string named = named_spec("Mine,ALL", "\t4096,100,0,0,0,1,0,0\n");
  const auto new_format = read_ok(file_with(spec_section(named), "1998.05.21"));
  ASSERT_TRUE(new_format.plan.access_specs.has_value());
  EXPECT_EQ(new_format.plan.access_specs->front().name, "Mine");
  EXPECT_TRUE(new_format.warnings.empty());

  // A later file with the six-column lines is read by content.
  const auto mislabelled = read_ok(file_with(spec_section(old_body), "2006.07.27"));
  EXPECT_EQ(mislabelled.plan.access_specs->front().name, "4 KiB sequential writes");
  EXPECT_TRUE(warned(mislabelled, 3, "6-column"));
}

TEST(IcfReaderSpecs, NamedFormatLeniencies) {
  const std::string body = named_spec("Dup,NONE", "\t512,100,100,0,0,1,0,0\n") +  // 3-6
                           named_spec("Assign by number,2", "\t4096,100,0,0,0,1,0,0,\n") +  // 7-10
                           named_spec("Short lines,NET", "\t0,0,0,0,0,0,0,0\n\t512,60,1,2,3,4\n\n\t1024,40,0,0,0,1,0\n") +  // 11-17
                           named_spec("dup,ALL", "\t8192,100,50,50,0,1,0,0\n");  // 18-21
  const auto imported = read_ok(file_with(spec_section(body)));
  ASSERT_TRUE(imported.plan.access_specs.has_value());
  const auto& specs = *imported.plan.access_specs;
  ASSERT_EQ(specs.size(), 3U);
  EXPECT_EQ(specs[0].name, "dup");  // replaced in place, as IOmeter merges by name
  EXPECT_EQ(specs[0].lines[0].size_bytes, 8192U);
  EXPECT_TRUE(warned(imported, 18, "defined twice"));
  EXPECT_EQ(specs[1].default_assignment, DefaultAssignment::disk);
  EXPECT_EQ(specs[1].lines, (std::vector<AccessSpecLine>{{4096, 100, 0, 0, 0, 1, 0, 0}}));
  EXPECT_EQ(specs[2].default_assignment, DefaultAssignment::network);
  EXPECT_EQ(specs[2].lines, (std::vector<AccessSpecLine>{{512, 60, 1, 2, 3, 4, 0, 0}, {1024, 40, 0, 0, 0, 1, 0, 0}}));
  EXPECT_TRUE(warned(imported, 14, "placeholder"));
  EXPECT_TRUE(warned(imported, 15, "without align/reply"));
  EXPECT_TRUE(warned(imported, 16, "blank line"));
}

TEST(IcfReaderSpecs, SpecNameKeepsTrailingSpacesBeforeTheComma) {
  const auto imported = read_ok(file_with(spec_section(named_spec("Spaced  ,ALL", "\t512,100,0,0,0,1,0,0\n"))));
  EXPECT_EQ(imported.plan.access_specs->front().name, "Spaced  ");
}

// --- MANAGER LIST (§1.7) ----------------------------------------------------------------------

TEST(IcfReaderManagers, IntegerScannerSeparators) {
  const auto commas = read_ok(file_with(manager_section(worker(
      "DISK", "'Number of outstanding IOs,test connection rate,transactions per connection\n\t16,DISABLED,3\n"))));
  const auto spaces = read_ok(file_with(manager_section(worker(
      "DISK", "'Number of outstanding IOs,test connection rate,transactions per connection\n\t16   DISABLED   3\n"))));
  const auto& a = commas.plan.managers->front().workers.front();
  const auto& b = spaces.plan.managers->front().workers.front();
  EXPECT_EQ(a.outstanding_ios, 16U);
  EXPECT_EQ(a.transactions_per_connection, 3U);
  EXPECT_EQ(a, b);
  EXPECT_TRUE(commas.warnings.empty());
}

TEST(IcfReaderManagers, OldAndNewWorkerKeys) {
  const auto old_keys = read_ok(file_with(manager_section(worker(
      "DISK",
      "'Number of outstanding IOs,test connection rate,transactions per connection\n\t8,ENABLED,10\n"
      "'Disk maximum size,starting sector\n\t1000,64\n"))));
  const auto& old_worker = old_keys.plan.managers->front().workers.front();
  EXPECT_EQ(old_worker.outstanding_ios, 8U);
  EXPECT_TRUE(old_worker.test_connection_rate);
  EXPECT_EQ(old_worker.maximum_disk_size_sectors, 1000U);
  EXPECT_EQ(old_worker.starting_sector, 64U);
  EXPECT_FALSE(old_worker.use_fixed_seed);
  EXPECT_TRUE(old_keys.warnings.empty());

  const auto new_keys = read_ok(file_with(manager_section(worker(
      "DISK", std::string(
                  "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed "
                  "seed value\n\t8,DISABLED,1,ENABLED,18446744073709551615\n"
                  "'Disk maximum size,starting sector,Data pattern\n\t18446744073709551615,1,1\n")))));
  const auto& new_worker = new_keys.plan.managers->front().workers.front();
  EXPECT_TRUE(new_worker.use_fixed_seed);
  EXPECT_EQ(new_worker.fixed_seed, 18446744073709551615ULL);
  EXPECT_EQ(new_worker.maximum_disk_size_sectors, 18446744073709551615ULL);
  EXPECT_EQ(new_worker.data_pattern, access_specs::DataPattern::pseudo_random);
}

TEST(IcfReaderManagers, ViWorkerWithRemoteTarget) {
  const std::string target =
      "'Target assignments\n'Target\n\tnic1\n'Target type\n\tNETWORK VI\n"
      "'Target manager ID, manager name\n\t2,far, away\n'End target\n'End target assignments\n";
  const auto imported = read_ok(file_with(manager_section(
      worker("NETWORK,VI", std::string(kDefaults) + "'Local network interface\n\tnic0\n'VI outstanding IOs\n\t12\n",
             target),
      "1,  local")));
  const auto& manager = imported.plan.managers->front();
  EXPECT_EQ(manager.name, "local");
  const auto& w = manager.workers.front();
  EXPECT_EQ(w.type, WorkerType::network_vi);
  EXPECT_EQ(w.local_network_interface, "nic0");
  EXPECT_EQ(w.vi_outstanding_ios, 12U);
  ASSERT_TRUE(w.targets.has_value());
  const auto& t = w.targets->front();
  EXPECT_EQ(t.type, WorkerType::network_vi);
  EXPECT_EQ(t.remote_manager_id, 2U);
  EXPECT_EQ(t.remote_manager_name, "far, away");
  EXPECT_TRUE(imported.warnings.empty());
}

TEST(IcfReaderManagers, UnknownNetworkSubtypeWarnsAndReadsTcp) {
  const auto imported = read_ok(file_with(manager_section(worker("NETWORK,IPX", kDefaults))));
  EXPECT_EQ(imported.plan.managers->front().workers.front().type, WorkerType::network_tcp);
  EXPECT_TRUE(warned(imported, 10, "subtype 'IPX'"));
}

TEST(IcfReaderManagers, SettingsForAnotherWorkerTypeAreKeptWithAWarning) {
  const auto imported = read_ok(file_with(manager_section(
      worker("NETWORK,TCP", std::string(kDefaults) + "'Disk maximum size,starting sector,Data pattern\n\t5,6,0\n"))));
  EXPECT_EQ(imported.plan.managers->front().workers.front().maximum_disk_size_sectors, 5U);
  EXPECT_TRUE(warned(imported, 14, "IOmeter 1.1.0 rejects it"));
}

TEST(IcfReaderManagers, TargetOfAnotherTypeIsKeptWithAWarning) {
  const std::string targets =
      "'Target assignments\n'Target\n\t10.0.0.1\n'Target type\n\tNETWORK,TCP\n'End target\n"
      "'End target assignments\n";
  const auto imported = read_ok(file_with(manager_section(worker("DISK", kDefaults, targets))));
  const auto& target = imported.plan.managers->front().workers.front().targets->front();
  EXPECT_EQ(target.type, WorkerType::network_tcp);
  EXPECT_FALSE(target.remote_manager_id.has_value());
  EXPECT_TRUE(warned(imported, 16, "NETWORK,TCP target on a DISK worker"));
}

TEST(IcfReaderManagers, AssignedSpecNamesResolveCaseInsensitively) {
  const std::string specs = spec_section(named_spec("Default,NONE", "\t2048,100,67,100,0,1,0,0\n"));
  const std::string assigned =
      "'Assigned access specs\n\tDEFAULT\n\tIdle\n\tNo such spec\n\n'End assigned access specs\n";
  const auto imported = read_ok(file_with(specs + manager_section(worker("DISK", kDefaults, assigned))));
  const auto& names = *imported.plan.managers->front().workers.front().assigned_specs;
  EXPECT_EQ(names, (std::vector<std::string>{"Default", "Idle", "No such spec"}));
  EXPECT_TRUE(warned(imported, 24, "'No such spec' is not defined"));
  EXPECT_TRUE(warned(imported, 25, "blank line"));
  EXPECT_EQ(imported.warnings.size(), 2U);
}

TEST(IcfReaderManagers, MissingWorkerTypeAndAddressAreAssumed) {
  const std::string text = file_with(
      "'MANAGER LIST ===\n'Manager ID, manager name\n\t3,bare\n"
      "'Worker\n\tW\n'End worker\n'End manager\n'END manager list\n");
  const auto imported = read_ok(text);
  const auto& manager = imported.plan.managers->front();
  EXPECT_EQ(manager.id, 3U);
  EXPECT_EQ(manager.network_address, "");
  EXPECT_EQ(manager.workers.front().type, WorkerType::disk);
  EXPECT_TRUE(warned(imported, 5, "no 'Worker type'"));
  EXPECT_TRUE(warned(imported, 3, "no 'Manager network address'"));
}

// --- file structure (§1.1) --------------------------------------------------------------------

TEST(IcfReaderStructure, SectionsInAnyOrderUnknownSectionsAndTextBetween) {
  const std::string text =
      "Version 1.1.0\n"
      "some text nobody reads\n"
      "'MANAGER LIST ==================================================================\n"  // 3
      "'Manager ID, manager name\n\t1,m\n'Manager network address\n\tlocalhost\n'End manager\n'END manager list\n"
      "'PLUGIN SETTINGS ===============================================================\n"  // 10
      "'Colour\n\tblue\n"
      "'TEST SETUP ====================================================================\n"
      "'Test Description\n\tlast\n'END test setup\n"
      "'TEST SETUP ====================================================================\n"  // 17
      "'Test Description\n\tsecond copy\n'END test setup\n"
      "Version 1.1.0\n";
  const auto imported = read_ok(text);
  ASSERT_TRUE(imported.plan.setup && imported.plan.managers);
  EXPECT_EQ(imported.plan.setup->description, "last");
  EXPECT_EQ(imported.plan.managers->front().network_address, "localhost");
  EXPECT_FALSE(imported.plan.display.has_value());
  EXPECT_TRUE(warned(imported, 10, "unknown section"));
  EXPECT_TRUE(warned(imported, 17, "second"));
}

TEST(IcfReaderStructure, LoneCarriageReturnsAndMixedLineEnds) {
  const std::string text =
      "Version 2006.07.27 \r'TEST SETUP ===\r\n'Test Description\n\tcr\r'END test setup\r\nVersion 2006.07.27 \r";
  const auto imported = read_ok(text);
  ASSERT_TRUE(imported.plan.setup.has_value());
  EXPECT_EQ(imported.plan.setup->description, "cr");
}

TEST(IcfReaderStructure, IndentedKeyIsAcceptedWithAWarning) {
  const auto imported = read_ok(file_with(setup_section("  'Ramp Up Time (s)\n\t4\n")));
  EXPECT_EQ(imported.plan.setup->ramp_up_s, 4U);
  EXPECT_TRUE(warned(imported, 3, "indented"));
}

TEST(IcfReaderStructure, LongLinesOnlyWarn) {
  const std::string description(500, 'x');
  const auto imported = read_ok(file_with(setup_section("'Test Description\n\t" + description + "\n")));
  EXPECT_EQ(imported.plan.setup->description, description);
  EXPECT_TRUE(warned(imported, 4, "199 characters"));
}

TEST(IcfReaderStructure, ValueStartingWithAnApostropheIsAValue) {
  const auto imported = read_ok(file_with(setup_section("'Test Description\n\t'quoted'\n")));
  EXPECT_EQ(imported.plan.setup->description, "'quoted'");
}

}  // namespace
}  // namespace iomark::icf
