#include "iomark/access_specs/data_reduction.hpp"

#include <gtest/gtest.h>

#include "iomark/access_specs/test_plan.hpp"

namespace iomark::access_specs {
namespace {

TEST(DataReduction, ParsesEachFormAndWritesItBack) {
  struct Case {
    std::string_view text;
    DataReduction expected;
    std::string_view canonical;
  };
  const Case cases[] = {
      {"compress:2", {2.0, 1.0, 4096}, "compress:2"},
      {"compress:3.5", {3.5, 1.0, 4096}, "compress:3.5"},
      {"dedupe:3", {1.0, 3.0, 4096}, "dedupe:3"},
      {"dedupe:3/8k", {1.0, 3.0, 8192}, "dedupe:3/8k"},
      {"dedupe:2.5/1m", {1.0, 2.5, 1U << 20}, "dedupe:2.5/1m"},
      {"compress:2,dedupe:3", {2.0, 3.0, 4096}, "compress:2,dedupe:3"},
      {"dedupe:3/16384,compress:1.5", {1.5, 3.0, 16384}, "compress:1.5,dedupe:3/16k"},
      {"compress:2,dedupe:1", {2.0, 1.0, 4096}, "compress:2"},
      {"compress:1", {1.0, 1.0, 4096}, "compress:1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const auto parsed = parse_data_reduction(c.text);
    ASSERT_TRUE(parsed) << parsed.error().message();
    EXPECT_EQ(*parsed, c.expected);
    EXPECT_EQ(to_string(*parsed), c.canonical);
    EXPECT_EQ(parse_data_reduction(to_string(*parsed)), parsed);
  }
}

TEST(DataReduction, RefusesBadTextAndOutOfRangeValuesNamingThem) {
  for (const std::string_view text : {"compress:", "compress:x", "compress:2,", "compress:2,compress:3", "zip:2",
                                      "dedupe:3/", "dedupe:3/banana", "compress:1e3", "compress:2;dedupe:2"}) {
    SCOPED_TRACE(text);
    const auto parsed = parse_data_reduction(text);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().code(), ErrorCode::parse_error);
    EXPECT_NE(parsed.error().message().find(text), std::string::npos);
  }
  const std::pair<std::string_view, std::string_view> out_of_range[] = {
      {"compress:0.5", "compress"}, {"compress:17", "compress"}, {"dedupe:0", "dedupe"},
      {"dedupe:2/512", "dedupe unit"}, {"dedupe:2/12k", "dedupe unit"}, {"dedupe:2/2m", "dedupe unit"}};
  for (const auto& [text, field] : out_of_range) {
    SCOPED_TRACE(text);
    const auto parsed = parse_data_reduction(text);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().code(), ErrorCode::invalid_argument);
    EXPECT_EQ(parsed.error().field(), field);
  }
}

TEST(WriteData, IometerNamesStayAndReductionsFallBackToFullRandom) {
  EXPECT_EQ(parse_write_data("repeating"), (WriteData{DataPattern::repeating_bytes, std::nullopt}));
  EXPECT_EQ(parse_write_data("pseudo-random"), (WriteData{DataPattern::pseudo_random, std::nullopt}));
  EXPECT_EQ(parse_write_data("full-random"), (WriteData{DataPattern::full_random, std::nullopt}));
  const auto reduced = parse_write_data("compress:2,dedupe:3");
  ASSERT_TRUE(reduced);
  EXPECT_EQ(reduced->pattern, DataPattern::full_random);
  EXPECT_EQ(reduced->reduction, (DataReduction{2.0, 3.0, 4096}));
  for (const auto& data : {WriteData{DataPattern::repeating_bytes, std::nullopt}, *reduced}) {
    EXPECT_EQ(parse_write_data(to_string(data)), data);
  }
  const auto bad = parse_write_data("zeros");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().field(), "--data-pattern");
  EXPECT_EQ(parse_write_data("compress:99").error().field(), "--data-pattern");
}

TEST(WriteData, PlanValidationChecksAWorkersReduction) {
  Worker worker;
  worker.name = "Worker 1";
  worker.data_reduction = DataReduction{2.0, 1.0, 3000};
  Manager manager{1, "host", "", {worker}};
  TestPlan plan;
  plan.managers = std::vector<Manager>{manager};
  const auto checked = validate(plan);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().field(), "data_reduction");
  EXPECT_NE(checked.error().message().find("Worker 1"), std::string::npos);
  (*plan.managers)[0].workers[0].data_reduction->dedupe_unit_bytes = 8192;
  EXPECT_TRUE(validate(plan));
}

}  // namespace
}  // namespace iomark::access_specs
