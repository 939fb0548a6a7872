// The 'IOMARK EXTENSIONS section (docs/icf-compatibility.md): iomark's data-reduction patterns
// stored where IOmeter 1.1.0 does not look, so IOmeter reads the same plan as without them.
#include <gtest/gtest.h>

#include <string>

#include "iomark/icf/icf.hpp"

namespace iomark::icf {
namespace {

using access_specs::DataPattern;
using access_specs::DataReduction;
using access_specs::TestPlan;
using access_specs::Worker;

Worker disk_worker(std::string name, DataPattern pattern, std::optional<DataReduction> reduction) {
  Worker worker;
  worker.name = std::move(name);
  worker.data_pattern = pattern;
  worker.data_reduction = reduction;
  worker.assigned_specs = std::vector<std::string>{"Default"};
  worker.targets = std::vector<access_specs::Target>{{"sdb", access_specs::WorkerType::disk, std::nullopt, ""}};
  return worker;
}

TestPlan plan_with_reductions() {
  TestPlan plan;
  plan.access_specs = std::vector<access_specs::AccessSpec>{
      {"Default", access_specs::DefaultAssignment::none, {access_specs::AccessSpecLine{}}}};
  plan.managers = std::vector<access_specs::Manager>{
      {1, "hostA", "", {disk_worker("Worker 1", DataPattern::full_random, DataReduction{2.0, 3.0, 8192}),
                        disk_worker("Worker 2", DataPattern::repeating_bytes, std::nullopt)}},
      {1, "hostB", "", {disk_worker("Worker 1", DataPattern::pseudo_random, DataReduction{3.5, 1.0, 4096})}}};
  return plan;
}

TestPlan without_reductions(TestPlan plan) {
  for (auto& manager : *plan.managers) {
    for (auto& worker : manager.workers) worker.data_reduction.reset();
  }
  return plan;
}

// The file without the lines from the section header through its END marker.
std::string without_section(const std::string& text, std::string_view header_tag, std::string_view end) {
  const auto start = text.find(std::string("\n") + std::string(header_tag));
  if (start == std::string::npos) return text;
  const auto stop = text.find(std::string(end) + "\n", start);
  return text.substr(0, start + 1) + text.substr(stop + end.size() + 1);
}

TEST(IcfExtensions, ReductionPatternsRoundTripWithoutWarnings) {
  const auto plan = plan_with_reductions();
  const auto text = write_icf(plan);
  const auto read = read_icf(text, "plan.icf");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->plan, plan);
  EXPECT_TRUE(read->warnings.empty());
  EXPECT_NE(text.find("'Data reduction,manager,worker,pattern\n\t1,1,compress:2,dedupe:3/8k\n"), std::string::npos);
  EXPECT_NE(text.find("\t2,1,compress:3.5\n"), std::string::npos);
}

TEST(IcfExtensions, IometerSeesTheSamePlanAndItsOwnPatternNumbers) {
  const auto plan = plan_with_reductions();
  const auto text = write_icf(plan);
  const auto plain = write_icf(without_reductions(plan));
  EXPECT_EQ(plain.find("IOMARK"), std::string::npos) << "plans without a reduction are written as IOmeter does";
  // Everything IOmeter reads (its four sections, the version lines) is byte for byte the file
  // without the extension; the section sits after 'END manager list, in the text between
  // sections that IOmeter 1.1.0 ignores (docs/iometer-reference.md#icf-lexical), and its tag begins
  // with none of IOmeter's four, whose loaders find their section by prefix.
  EXPECT_EQ(without_section(text, "'IOMARK EXTENSIONS", "'END iomark extensions"), plain);
  EXPECT_GT(text.find("'IOMARK EXTENSIONS"), text.find("'END manager list"));
  for (const std::string_view tag : {"'TEST SETUP", "'RESULTS DISPLAY", "'ACCESS SPECIFICATIONS", "'MANAGER LIST"}) {
    EXPECT_NE(std::string_view("'IOMARK EXTENSIONS").substr(0, tag.size()), tag);
  }
  // The data-pattern numbers IOmeter reads stay the workers' own (2, 0 and 1 here).
  const auto read = read_icf(plain);
  ASSERT_TRUE(read);
  EXPECT_EQ((*read->plan.managers)[0].workers[0].data_pattern, DataPattern::full_random);
  EXPECT_EQ((*read->plan.managers)[1].workers[0].data_pattern, DataPattern::pseudo_random);
  EXPECT_EQ(read->plan, without_reductions(plan));
}

TEST(IcfExtensions, BadLinesAreLocatedErrors) {
  const auto text = write_icf(plan_with_reductions());
  auto replaced = [&](std::string_view from, std::string_view to) {
    std::string changed = text;
    changed.replace(changed.find(from), from.size(), to);
    return changed;
  };
  const auto missing_worker = read_icf(replaced("\t2,1,compress:3.5", "\t2,7,compress:3.5"), "p.icf");
  ASSERT_FALSE(missing_worker);
  EXPECT_EQ(missing_worker.error().field(), "Data reduction");
  EXPECT_NE(missing_worker.error().location().line, 0U);
  const auto bad_pattern = read_icf(replaced("\t2,1,compress:3.5", "\t2,1,compress:99"), "p.icf");
  ASSERT_FALSE(bad_pattern);
  EXPECT_EQ(bad_pattern.error().field(), "pattern");
  const auto unterminated = read_icf(replaced("'END iomark extensions\n", ""), "p.icf");
  ASSERT_FALSE(unterminated);
  // A key a later iomark adds is skipped with a warning, as IOmeter skips the whole section.
  const auto later = read_icf(replaced("'END iomark extensions", "'Something new\n\tvalue\n'END iomark extensions"));
  ASSERT_TRUE(later) << later.error().describe();
  EXPECT_EQ(later->warnings.size(), 1U);
  EXPECT_EQ(later->plan, plan_with_reductions());
}

TEST(IcfExtensions, WorkerRatesRoundTripAndIometerSeesThePlanWithout) {
  auto plan = plan_with_reductions();
  (*plan.managers)[0].workers[1].rate_iops = 2500.0;
  (*plan.managers)[1].workers[0].rate_iops = 0.25;
  const auto text = write_icf(plan);
  EXPECT_NE(text.find("'Rate IOPS,manager,worker,rate\n\t1,2,2500\n"), std::string::npos) << text;
  EXPECT_NE(text.find("'Rate IOPS,manager,worker,rate\n\t2,1,0.25\n"), std::string::npos) << text;
  const auto read = read_icf(text, "plan.icf");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->plan, plan);
  EXPECT_TRUE(read->warnings.empty());

  auto plain = without_reductions(plan);
  for (auto& manager : *plain.managers) {
    for (auto& worker : manager.workers) worker.rate_iops.reset();
  }
  EXPECT_EQ(without_section(text, "'IOMARK EXTENSIONS", "'END iomark extensions"), write_icf(plain));

  auto replaced = [&](std::string_view from, std::string_view to) {
    std::string changed = text;
    changed.replace(changed.find(from), from.size(), to);
    return changed;
  };
  const auto not_a_number = read_icf(replaced("\t1,2,2500", "\t1,2,fast"), "p.icf");
  ASSERT_FALSE(not_a_number);
  EXPECT_EQ(not_a_number.error().field(), "rate");
  EXPECT_NE(not_a_number.error().location().line, 0U);
  const auto no_such_worker = read_icf(replaced("\t1,2,2500", "\t1,9,2500"), "p.icf");
  ASSERT_FALSE(no_such_worker);
  EXPECT_EQ(no_such_worker.error().field(), "Rate IOPS");
  const auto too_slow = read_icf(replaced("\t1,2,2500", "\t1,2,0.001"), "p.icf");
  ASSERT_FALSE(too_slow) << "below a worker's least rate";
  EXPECT_EQ(too_slow.error().field(), "rate");
  EXPECT_NE(too_slow.error().message().find("outside 0.01 to"), std::string::npos) << too_slow.error().describe();
}

}  // namespace
}  // namespace iomark::icf
