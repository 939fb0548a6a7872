// The literals of the .icf format (docs/iometer-reference.md#icf-sections), shared by the reader
// and the writer so that both spell every key the same way. Keys keep their leading apostrophe.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"

namespace iomark::icf::format {

inline constexpr std::string_view kWrittenVersion = "1.1.0";
inline constexpr std::string_view kVersionPrefix = "Version";

// Section headers: the tag, one space, then '=' up to column 80.
inline constexpr std::string_view kTestSetupHeader =
    "'TEST SETUP ====================================================================";
inline constexpr std::string_view kResultsDisplayHeader =
    "'RESULTS DISPLAY ===============================================================";
inline constexpr std::string_view kAccessSpecsHeader =
    "'ACCESS SPECIFICATIONS =========================================================";
inline constexpr std::string_view kManagerListHeader =
    "'MANAGER LIST ==================================================================";

inline constexpr std::string_view kTestSetupTag = "'TEST SETUP";
inline constexpr std::string_view kResultsDisplayTag = "'RESULTS DISPLAY";
inline constexpr std::string_view kAccessSpecsTag = "'ACCESS SPECIFICATIONS";
inline constexpr std::string_view kManagerListTag = "'MANAGER LIST";

// iomark's own section (docs/icf-compatibility.md, "iomark extensions"): IOmeter 1.1.0 looks
// only for its four tags and ignores unknown sections and the text between sections
// (docs/iometer-reference.md#icf-lexical), so it loads the file as if the section were not there.
inline constexpr std::string_view kIomarkExtensionsHeader =
    "'IOMARK EXTENSIONS =============================================================";
inline constexpr std::string_view kIomarkExtensionsTag = "'IOMARK EXTENSIONS";
inline constexpr std::string_view kEndIomarkExtensions = "'END iomark extensions";
// One per worker with a reduction pattern: 1-based positions in the manager list, then the
// pattern's text (access_specs::to_string(DataReduction)), e.g. "1,2,compress:2,dedupe:3".
inline constexpr std::string_view kDataReductionKey = "'Data reduction,manager,worker,pattern";
// One per disk worker with a rate (docs/characterize.md#rate-control): 1-based positions, then
// I/Os per second, e.g. "1,1,2500".
inline constexpr std::string_view kRateKey = "'Rate IOPS,manager,worker,rate";

inline constexpr std::string_view kEndTestSetup = "'END test setup";
inline constexpr std::string_view kEndResultsDisplay = "'END results display";
inline constexpr std::string_view kEndAccessSpecs = "'END access specifications";
inline constexpr std::string_view kEndManagerList = "'END manager list";

// TEST SETUP
inline constexpr std::string_view kTestDescription = "'Test Description";
inline constexpr std::string_view kRunTime = "'Run Time";
inline constexpr std::string_view kRunTimeCaption = "'\thours      minutes    seconds";
inline constexpr std::string_view kRampUpTime = "'Ramp Up Time (s)";
inline constexpr std::string_view kRampUpTimePrefix = "'Ramp Up Time";
inline constexpr std::string_view kDefaultDiskWorkers = "'Default Disk Workers to Spawn";
inline constexpr std::string_view kDefaultNetworkWorkers = "'Default Network Workers to Spawn";
inline constexpr std::string_view kLegacyDefaultWorkers = "'Default Workers to Spawn";
inline constexpr std::string_view kNumberOfCpus = "NUMBER_OF_CPUS";
inline constexpr std::string_view kRecordResults = "'Record Results";
inline constexpr std::string_view kWorkerCycling = "'Worker Cycling";
inline constexpr std::string_view kDiskCycling = "'Disk Cycling";
inline constexpr std::string_view kCyclingCaption = "'\tstart      step       step type";
inline constexpr std::string_view kQueueDepthCycling = "'Queue Depth Cycling";
inline constexpr std::string_view kQueueDepthCaption = "'\tstart      end        step       step type";
inline constexpr std::string_view kTestType = "'Test Type";

// RESULTS DISPLAY
inline constexpr std::string_view kDisplayFirstKey = "'Record Last Update Results,Update Frequency,Update Type";
inline constexpr std::string_view kLegacyDisplayFirstKey = "'Update Frequency,Update Type";
inline constexpr std::string_view kBarChartPrefix = "'Bar chart";
inline constexpr std::string_view kBarStatistic = "statistic";
inline constexpr std::string_view kBarManager = "manager ID, manager name";
inline constexpr std::string_view kBarWorker = "worker ID, worker name";
inline constexpr std::string_view kEnabled = "ENABLED";
inline constexpr std::string_view kDisabled = "DISABLED";
inline constexpr std::string_view kLastUpdate = "LAST_UPDATE";
inline constexpr std::string_view kWholeTest = "WHOLE_TEST";
inline constexpr std::uint32_t kBarChartCount = 6;
inline constexpr std::array<std::uint32_t, 11> kUpdateFrequencies{0, 1, 2, 3, 4, 5, 10, 15, 30, 45, 60};

// The Results Display menu captions IOmeter 1.1.0 knows (matched case-insensitively).
inline constexpr std::array<std::string_view, 34> kStatisticCaptions{
    "Total I/Os per Second",          "Read I/Os per Second",
    "Write I/Os per Second",          "Transactions per Second",
    "Connections per Second",         "Total MBs per Second (Decimal)",
    "Read MBs per Second (Decimal)",  "Write MBs per Second (Decimal)",
    "Total MBs per Second (Binary)",  "Read MBs per Second (Binary)",
    "Write MBs per Second (Binary)",  "Average I/O Response Time (ms)",
    "Avg. Read Response Time (ms)",   "Avg. Write Response Time (ms)",
    "Avg. Transaction Time (ms)",     "Avg. Connection Time (ms)",
    "Maximum I/O Response Time (ms)", "Max. Read Response Time (ms)",
    "Max. Write Response Time (ms)",  "Max. Transaction Time (ms)",
    "Max. Connection Time (ms)",      "% CPU Utilization (total)",
    "% User Time",                    "% Privileged Time",
    "% DPC Time",                     "% Interrupt Time",
    "Interrupts per Second",          "CPU Effectiveness",
    "Network Packets per Second",     "Packet Errors",
    "TCP Segments Retrans. per Sec.", "Total Error Count",
    "Read Error Count",               "Write Error Count",
};

// ACCESS SPECIFICATIONS
inline constexpr std::string_view kSpecNameKey = "'Access specification name,default assignment";
inline constexpr std::string_view kSpecLinesCaption = "'size,% of size,% reads,% random,delay,burst,align,reply";
inline constexpr std::string_view kSpecLinesField = "size,% of size,% reads,% random,delay,burst,align,reply";
inline constexpr std::array<std::string_view, 8> kSpecColumns{
    "size", "% of size", "% reads", "% random", "delay", "burst", "align", "reply"};
// Files older than this hold the six-column, unnamed access-spec format.
inline constexpr std::uint64_t kNewSpecFormatVersion = 19980521;
inline constexpr std::uint64_t kOldestVersion = 19980105;
// Files older than this had no 'END test setup; IOmeter stops at the first unknown key.
inline constexpr std::uint64_t kStrictTestSetupVersion = 19990217;

// MANAGER LIST
inline constexpr std::string_view kManagerKey = "'Manager ID, manager name";
inline constexpr std::string_view kManagerAddress = "'Manager network address";
inline constexpr std::string_view kEndManager = "'End manager";
inline constexpr std::string_view kWorkerKey = "'Worker";
inline constexpr std::string_view kWorkerType = "'Worker type";
inline constexpr std::string_view kEndWorker = "'End worker";
inline constexpr std::string_view kDefaultSettings = "'Default target settings for worker";
inline constexpr std::string_view kEndDefaultSettings = "'End default target settings for worker";
inline constexpr std::string_view kOutstandingIos =
    "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value";
inline constexpr std::string_view kLegacyOutstandingIos =
    "'Number of outstanding IOs,test connection rate,transactions per connection";
inline constexpr std::string_view kDiskSettings = "'Disk maximum size,starting sector,Data pattern";
inline constexpr std::string_view kLegacyDiskSettings = "'Disk maximum size,starting sector";
inline constexpr std::string_view kLocalInterface = "'Local network interface";
inline constexpr std::string_view kViOutstandingIos = "'VI outstanding IOs";
inline constexpr std::string_view kAssignedSpecs = "'Assigned access specs";
inline constexpr std::string_view kEndAssignedSpecs = "'End assigned access specs";
inline constexpr std::string_view kTargetAssignments = "'Target assignments";
inline constexpr std::string_view kEndTargetAssignments = "'End target assignments";
inline constexpr std::string_view kTargetKey = "'Target";
inline constexpr std::string_view kTargetType = "'Target type";
inline constexpr std::string_view kTargetManager = "'Target manager ID, manager name";
inline constexpr std::string_view kEndTarget = "'End target";

inline constexpr std::string_view kDisk = "DISK";
inline constexpr std::string_view kNetwork = "NETWORK";
inline constexpr std::string_view kTcp = "TCP";
inline constexpr std::string_view kVi = "VI";

// The key text without its apostrophe: the name errors use for a field.
[[nodiscard]] constexpr std::string_view field_name(std::string_view key) noexcept {
  return key.empty() || key.front() != '\'' ? key : key.substr(1);
}

// A section header without its '=' padding: "TEST SETUP".
[[nodiscard]] constexpr std::string_view section_name(std::string_view header) noexcept {
  const auto end = header.find_last_not_of("= ");
  return field_name(header.substr(0, end == std::string_view::npos ? 0 : end + 1));
}

[[nodiscard]] constexpr std::string_view worker_type_literal(access_specs::WorkerType type) noexcept {
  switch (type) {
    case access_specs::WorkerType::disk: return "DISK";
    case access_specs::WorkerType::network_tcp: return "NETWORK,TCP";
    case access_specs::WorkerType::network_vi: return "NETWORK,VI";
  }
  return "DISK";
}

// The ICF spells the assignment NONE/ALL/DISK/NET (numeric 0..3 in the oldest files).
[[nodiscard]] constexpr std::string_view assignment_literal(access_specs::DefaultAssignment value) noexcept {
  switch (value) {
    case access_specs::DefaultAssignment::none: return "NONE";
    case access_specs::DefaultAssignment::all: return "ALL";
    case access_specs::DefaultAssignment::disk: return "DISK";
    case access_specs::DefaultAssignment::network: return "NET";
  }
  return "NONE";
}

}  // namespace iomark::icf::format
