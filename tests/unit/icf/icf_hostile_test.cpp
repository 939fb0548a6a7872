// Hostile and broken input: every case ends in a clean Error that names the file, the
// 1-based line and the field, never a crash or a hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "icf_test_support.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::icf {
namespace {

using test::file_with;
using test::kSpecExample;

struct Expected {
  std::uint64_t line;
  std::string_view field;
  ErrorCode code{ErrorCode::parse_error};
};

void expect_error(std::string_view text, const Expected& expected) {
  const auto result = read_icf(text, "hostile.icf");
  ASSERT_FALSE(result.has_value()) << "read without error";
  const Error& error = result.error();
  EXPECT_EQ(error.location().file, "hostile.icf");
  EXPECT_EQ(error.location().line, expected.line) << error.describe();
  EXPECT_EQ(error.field(), expected.field) << error.describe();
  EXPECT_EQ(error.code(), expected.code) << error.describe();
  EXPECT_FALSE(error.message().empty());
}

std::string setup(std::string_view keys) {
  return "'TEST SETUP ====================================================================\n" + std::string(keys) +
         "'END test setup\n";
}

// Line 2 is the header; the worker's first settings key is line 12, its value line 13.
std::string one_worker(std::string_view type, std::string_view settings, std::string_view rest = "") {
  return "'MANAGER LIST ==================================================================\n"  // 2
         "'Manager ID, manager name\n\t1,m\n'Manager network address\n\t\n"                   // 3-6
         "'Worker\n\tW\n'Worker type\n\t" +                                                   // 7-9
         std::string(type) + "\n'Default target settings for worker\n" + std::string(settings) +  // 10-11...
         "'End default target settings for worker\n" + std::string(rest) + "'End worker\n'End manager\n'END manager list\n";
}

constexpr std::string_view kOutstandingKey =
    "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value\n";

std::string spec(std::string_view lines) {
  return "'ACCESS SPECIFICATIONS =========================================================\n"  // 2
         "'Access specification name,default assignment\n\tS,NONE\n"                          // 3-4
         "'size,% of size,% reads,% random,delay,burst,align,reply\n" +                       // 5
         std::string(lines) + "'END access specifications\n";                                 // 6...
}

TEST(IcfHostile, EmptyAndNonIcfText) {
  expect_error("", {1, "Version"});
  expect_error("\n\n\n", {1, "Version"});
  expect_error("'Test Type,Test Description\nNORMAL,run\n", {1, "Version"});
  expect_error("Version of nothing\n", {1, "Version"});
  expect_error("Version 2006.07\n", {1, "Version"});
  expect_error("\xff\xfe\x01\x80garbage\x9b\n", {1, "Version"});
}

TEST(IcfHostile, BinaryWithNulBytes) {
  const std::string elf("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0", 20);
  expect_error(elf, {1, "Version"});
  std::string nul_in_worker = file_with(one_worker("DISK", ""));
  nul_in_worker.insert(nul_in_worker.find("\tW\n") + 2, std::string(1, '\0'));
  expect_error(nul_in_worker, {8, "Worker"});
}

// 50 MB of newlines (it once took 2.7 GB to index): refused at the first line past the limit,
// in LF, CR and CRLF; a file at the limit still reads as far as its content allows.
TEST(IcfHostile, MoreLinesThanTheLimit) {
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 20;
  for (const std::string_view end : {"\n", "\r", "\r\n"}) {
    std::string lines;
    for (std::uint64_t i = 0; i <= kLimit; ++i) lines += end;
    const auto result = read_icf(lines, "hostile.icf");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().location(), (SourceLocation{"hostile.icf", kLimit + 1})) << result.error().describe();
    EXPECT_NE(result.error().message().find("at most 1048576"), std::string::npos) << result.error().message();
  }
  expect_error(std::string(50'000'000, '\n'), {kLimit + 1, ""});
  // At the limit the usual check runs: an empty file has no Version line.
  expect_error(std::string(kLimit, '\n'), {1, "Version"});
}

TEST(IcfHostile, VersionNumbersBeyondThirtyTwoBits) {
  expect_error("Version 99999999999.1.1\n", {1, "Version"});
  expect_error("Version 1.1.99999999999999999999999\n", {1, "Version"});
}

TEST(IcfHostile, TenMegabyteLine) {
  std::string text = file_with(setup("'Test Description\n\t" + std::string(10 * 1024 * 1024, 'A') + "\n"));
  expect_error(text, {4, "Test Description"});
  const std::string long_key = "Version 1.1.0\n'" + std::string(10 * 1024 * 1024, '=') + "\n";
  const auto result = read_icf(long_key, "hostile.icf");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().location().line, 2U);
  EXPECT_LE(result.error().field().size(), 120U);
}

TEST(IcfHostile, NumbersTooLargeForTheirField) {
  expect_error(file_with(one_worker("DISK", std::string(kOutstandingKey) + "\t4294967296,DISABLED,1,DISABLED,0\n")),
               {13, "Number of outstanding IOs", ErrorCode::invalid_argument});
  expect_error(
      file_with(one_worker("DISK", std::string(kOutstandingKey) + "\t1,DISABLED,1,ENABLED,18446744073709551616\n")),
      {13, "fixed seed value", ErrorCode::invalid_argument});
  expect_error(file_with(one_worker("DISK", "'Disk maximum size,starting sector,Data pattern\n"
                                            "\t99999999999999999999999999,0,0\n")),
               {13, "Disk maximum size", ErrorCode::invalid_argument});
  expect_error(file_with(spec("\t4294967296,100,0,0,0,1,0,0\n")), {6, "size", ErrorCode::invalid_argument});
  expect_error(file_with(setup("'Run Time\n\t1193047 0 0\n")), {4, "Run Time", ErrorCode::invalid_argument});
  expect_error(file_with(setup("'Run Time\n\t0 4294967296 0\n")), {4, "Run Time", ErrorCode::invalid_argument});
  expect_error(file_with(setup("'Ramp Up Time (s)\n\t-5\n")), {4, "Ramp Up Time (s)", ErrorCode::invalid_argument});
  expect_error(file_with(setup("'Default Disk Workers to Spawn\n\t4294967296\n")),
               {4, "Default Disk Workers to Spawn", ErrorCode::invalid_argument});
}

TEST(IcfHostile, MalformedValues) {
  expect_error(file_with(setup("'Run Time\n\t0 1\n")), {4, "Run Time"});
  expect_error(file_with(setup("'Worker Cycling\n\t1 2-3 LINEAR\n")), {4, "Worker Cycling"});
  expect_error(file_with(setup("'Disk Cycling\n\t1 1 SIDEWAYS\n")), {4, "Disk Cycling", ErrorCode::invalid_argument});
  expect_error(file_with(setup("'Test Type\n\t8\n")), {4, "Test Type", ErrorCode::invalid_argument});
  expect_error(file_with(setup("'Record Results\n\tSOME\n")), {4, "Record Results", ErrorCode::invalid_argument});
  expect_error(file_with(setup("'Default Network Workers to Spawn\n\tmany\n")), {4, "Default Network Workers to Spawn"});
  expect_error(file_with("'RESULTS DISPLAY ===\n'Record Last Update Results,Update Frequency,Update Type\n"
                         "\tENABLED,1,SOMETIMES\n'END results display\n"),
               {4, "Update Type", ErrorCode::invalid_argument});
  expect_error(file_with(one_worker("DISK", std::string(kOutstandingKey) + "\t1,MAYBE,1,DISABLED,0\n")),
               {13, "test connection rate", ErrorCode::invalid_argument});
  expect_error(file_with(one_worker("DISK", "'Disk maximum size,starting sector,Data pattern\n\t0,0,3\n")),
               {13, "Data pattern", ErrorCode::invalid_argument});
  expect_error(file_with(one_worker("TAPE", "")), {10, "Worker type", ErrorCode::invalid_argument});
  expect_error(file_with("'MANAGER LIST ===\n'Manager ID, manager name\n\tnameless\n'End manager\n'END manager list\n"),
               {4, "Manager ID"});
}

TEST(IcfHostile, AccessSpecificationLines) {
  expect_error(file_with(spec("\t512,100,101,0,0,1,0,0\n")), {6, "% reads", ErrorCode::invalid_argument});
  expect_error(file_with(spec("\t512,100,50,-1,0,1,0,0\n")), {6, "% random", ErrorCode::invalid_argument});
  expect_error(file_with(spec("\t512,100,50,x,0,1,0,0\n")), {6, "% random"});
  expect_error(file_with(spec("\t512,100,50\n")), {6, "% random"});
  expect_error(file_with(spec("\t512,60,50,0,0,1,0,0\n\t512,30,50,0,0,1,0,0\n")),
               {4, "% of size", ErrorCode::validation_error});
  expect_error(file_with(spec("")), {4, "% of size", ErrorCode::validation_error});
  std::string many;
  for (int i = 0; i < 101; ++i) many += i == 0 ? "\t512,100,0,0,0,1,0,0\n" : "\t512,0,0,0,0,1,0,0\n";
  expect_error(file_with(spec(many)),
               {106, "size,% of size,% reads,% random,delay,burst,align,reply", ErrorCode::invalid_argument});
  std::string old_format = "Version 1998.01.05\n'ACCESS SPECIFICATIONS ===\n'comment\n512 60 0 0 0 1\n512 50 0 0 0 1\n";
  expect_error(old_format, {5, "% of size", ErrorCode::validation_error});
  expect_error("Version 1998.01.05\n'ACCESS SPECIFICATIONS ===\n'comment\n512 60 0\n", {4, "% random"});
}

TEST(IcfHostile, MissingEndMarkers) {
  // TEST SETUP running into the next section.
  expect_error(file_with("'TEST SETUP ===\n'Ramp Up Time (s)\n\t1\n'RESULTS DISPLAY ===\n'END results display\n"),
               {5, "END test setup"});
  // ACCESS SPECIFICATIONS running into the trailer.
  expect_error("Version 1.1.0\n'ACCESS SPECIFICATIONS ===\n'Access specification name,default assignment\n\tS,NONE\n"
               "'size\n\t512,100,0,0,0,1,0,0\nVersion 1.1.0\n",
               {7, "END access specifications"});
  // Target assignments closed by 'End worker.
  expect_error(file_with(one_worker("DISK", "", "'Target assignments\n'Target\n\tsdb\n'Target type\n\tDISK\n'End target\n")),
               {19, "End target assignments"});
  // A second 'Worker before 'End worker.
  expect_error("Version 1.1.0\n'MANAGER LIST ===\n'Manager ID, manager name\n\t1,m\n'Worker\n\tA\n'Worker type\n\tDISK\n"
               "'Worker\n\tB\n",
               {9, "End worker"});
  // A target without 'End target.
  expect_error(file_with(one_worker("DISK", "", "'Target assignments\n'Target\n\tsdb\n'Target\n\tsdc\n'End target\n"
                                                "'End target assignments\n")),
               {16, "End target"});
}

TEST(IcfHostile, TruncatedFiles) {
  expect_error("Version 1.1.0\n'TEST SETUP ===\n'Ramp Up Time (s)\n", {3, "Ramp Up Time (s)"});
  expect_error("Version 1.1.0\n'MANAGER LIST ===\n'Manager ID, manager name\n\t1,m\n'Worker\n\tW\n'Worker type\n\tDISK\n",
               {8, "End worker"});
  expect_error("Version 1.1.0\n'MANAGER LIST ===\n", {2, "END manager list"});
}

TEST(IcfHostile, StrayDataAndMisplacedKeys) {
  expect_error(file_with(setup("'Ramp Up Time (s)\n\t1\n\t2\n")), {5, "Ramp Up Time (s)"});
  expect_error(file_with(one_worker("DISK", "'Target type\n\tDISK\n")), {12, "Target type"});
  expect_error(file_with("'MANAGER LIST ===\n'Worker\n\tW\n'END manager list\n"), {3, "Worker"});
  expect_error(file_with(setup("\tstray value\n")), {3, "TEST SETUP"});
}

// Cutting the §1.9 example anywhere, or changing bytes of it, yields a plan or a located error.
TEST(IcfHostile, EveryTruncationAndRandomMutationOfTheExample) {
  const std::string example(kSpecExample);
  auto check = [](const std::string& text) {
    const auto result = read_icf(text, "cut.icf");
    if (result) return;
    const auto line_ends = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n') +
                                                      std::count(text.begin(), text.end(), '\r'));
    EXPECT_EQ(result.error().location().file, "cut.icf");
    EXPECT_GE(result.error().location().line, 1U);
    EXPECT_LE(result.error().location().line, line_ends + 1);
    EXPECT_FALSE(result.error().field().empty()) << result.error().describe();
  };
  for (std::size_t size = 0; size <= example.size(); ++size) check(example.substr(0, size));

  std::mt19937_64 random(20240607);
  const std::string alphabet = "\t\n\r '0123456789,-=ENDVersion\x01\xff";
  for (int round = 0; round < 3000; ++round) {
    std::string mutated = example;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int edit = 0; edit < edits; ++edit) {
      const auto at = static_cast<std::size_t>(random() % mutated.size());
      switch (random() % 3) {
        case 0: mutated[at] = alphabet[random() % alphabet.size()]; break;
        case 1: mutated.erase(at, 1 + random() % 40); break;
        default: mutated.insert(at, 1, alphabet[random() % alphabet.size()]); break;
      }
      if (mutated.empty()) mutated = "x";
    }
    check(mutated);
  }
}

// Pathological sizes are still read (in linear time: no timing assertion, the suite's
// timeout is the guard).
TEST(IcfHostile, ManyLinesManySpecsManyWarnings) {
  std::string specs;
  for (int i = 0; i < 20000; ++i) {
    specs += "'Access specification name,default assignment\n\tspec " + std::to_string(i) +
             ",NONE\n'size\n\t512,100,0,0,0,1,0,0\n";
  }
  const auto imported =
      test::read_ok(file_with("'ACCESS SPECIFICATIONS ===\n" + specs + "'END access specifications\n"));
  ASSERT_TRUE(imported.plan.access_specs.has_value());
  EXPECT_EQ(imported.plan.access_specs->size(), 20000U);

  std::string identical = "Version 1998.01.05\n'ACCESS SPECIFICATIONS ===\n'comment\n";
  for (int i = 0; i < 50000; ++i) identical += "512 100 100 0 0 1\n";
  const auto old_format = test::read_ok(identical);
  ASSERT_TRUE(old_format.plan.access_specs.has_value());
  ASSERT_EQ(old_format.plan.access_specs->size(), 50000U);
  EXPECT_EQ(old_format.plan.access_specs->back().name, "512 B sequential reads 50000");

  const auto blank = test::read_ok(file_with("'TEST SETUP ===\n" + std::string(200000, '\n') + "'END test setup\n"));
  EXPECT_EQ(blank.warnings.size(), 1001U);  // capped, with one summary warning
}

}  // namespace
}  // namespace iomark::icf
