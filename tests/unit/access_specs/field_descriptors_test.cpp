#include "iomark/access_specs/field_descriptors.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>
#include <string>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"

namespace iomark::access_specs {
namespace {

constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

std::vector<std::string_view> keys_of(FieldGroup group) {
  std::vector<std::string_view> keys;
  for (const FieldDescriptor& d : field_descriptors(group)) keys.push_back(d.key);
  return keys;
}

TEST(FieldDescriptors, SpecLineGroupFollowsTheIcfColumnOrder) {
  std::string joined;
  for (const FieldDescriptor& d : field_descriptors(FieldGroup::spec_line)) {
    if (!joined.empty()) joined += ',';
    joined += d.icf_name;
  }
  EXPECT_EQ(joined, "size,% of size,% reads,% random,delay,burst,align,reply");
}

TEST(FieldDescriptors, EachGroupHoldsTheFieldsItShould) {
  EXPECT_EQ(keys_of(FieldGroup::spec_line),
            (std::vector<std::string_view>{"size", "percent_of_size", "percent_reads", "percent_random",
                                           "delay", "burst", "align", "reply"}));
  EXPECT_EQ(keys_of(FieldGroup::worker),
            (std::vector<std::string_view>{"outstanding_ios", "max_disk_size_sectors", "starting_sector",
                                           "data_pattern", "transactions_per_connection", "fixed_seed"}));
  EXPECT_EQ(keys_of(FieldGroup::test_setup),
            (std::vector<std::string_view>{"run_time", "ramp_up", "queue_depth_start", "queue_depth_end",
                                           "queue_depth_step", "worker_cycling_start", "worker_cycling_step",
                                           "target_cycling_start", "target_cycling_step"}));
  EXPECT_EQ(all_field_descriptors().size(), kFieldCount);
  EXPECT_EQ(field_descriptors(FieldGroup::spec_line).size() + field_descriptors(FieldGroup::worker).size() +
                field_descriptors(FieldGroup::test_setup).size(),
            kFieldCount);
}

TEST(FieldDescriptors, KeysAreUniqueAndEveryDescriptorIsDocumented) {
  std::set<std::string_view> keys;
  for (const FieldDescriptor& d : all_field_descriptors()) {
    EXPECT_TRUE(keys.insert(d.key).second) << d.key;
    EXPECT_FALSE(d.icf_name.empty()) << d.key;
    EXPECT_FALSE(d.caption.empty()) << d.key;
    EXPECT_FALSE(d.help.empty()) << d.key;
    EXPECT_LE(d.min_value, d.max_value) << d.key;
    EXPECT_TRUE(d.accepts(d.default_value)) << d.key;
    EXPECT_EQ(&field_descriptor(d.id), &d) << d.key;
  }
}

TEST(FieldDescriptors, LookupByKey) {
  const FieldDescriptor* reads = find_field("percent_reads");
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->id, FieldId::percent_reads);
  EXPECT_EQ(reads->caption, "Percent Read/Write Distribution");
  EXPECT_EQ(reads->unit, FieldUnit::percent);
  ASSERT_NE(find_field("outstanding_ios"), nullptr);
  EXPECT_EQ(find_field("outstanding_ios")->caption, "# of Outstanding I/Os");
  EXPECT_EQ(find_field("Percent_Reads"), nullptr);
  EXPECT_EQ(find_field("nonsense"), nullptr);
  EXPECT_EQ(find_field(""), nullptr);
}

TEST(FieldDescriptors, OnlyByteFieldsTakeSizeSuffixes) {
  for (const FieldDescriptor& d : all_field_descriptors()) {
    const bool is_byte_field = d.key == "size" || d.key == "align" || d.key == "reply";
    EXPECT_EQ(d.unit == FieldUnit::bytes, is_byte_field) << d.key;
  }
  EXPECT_EQ(to_string(FieldUnit::bytes), "B");
  EXPECT_EQ(to_string(FieldUnit::milliseconds), "ms");
  EXPECT_EQ(to_string(FieldUnit::percent), "%");
}

TEST(FieldDescriptors, DefaultsMatchTheModelsDefaults) {
  const AccessSpecLine line;
  EXPECT_EQ(field_descriptor(FieldId::size).default_value, line.size_bytes);
  EXPECT_EQ(field_descriptor(FieldId::percent_of_size).default_value, line.percent_of_size);
  EXPECT_EQ(field_descriptor(FieldId::percent_reads).default_value, line.percent_reads);
  EXPECT_EQ(field_descriptor(FieldId::percent_random).default_value, line.percent_random);
  EXPECT_EQ(field_descriptor(FieldId::delay).default_value, line.delay_ms);
  EXPECT_EQ(field_descriptor(FieldId::burst).default_value, line.burst_transactions);
  EXPECT_EQ(field_descriptor(FieldId::align).default_value, line.align_bytes);
  EXPECT_EQ(field_descriptor(FieldId::reply).default_value, line.reply_bytes);

  const Worker worker;
  EXPECT_EQ(field_descriptor(FieldId::outstanding_ios).default_value, worker.outstanding_ios);
  EXPECT_EQ(field_descriptor(FieldId::max_disk_size_sectors).default_value, worker.maximum_disk_size_sectors);
  EXPECT_EQ(field_descriptor(FieldId::starting_sector).default_value, worker.starting_sector);
  EXPECT_EQ(field_descriptor(FieldId::data_pattern).default_value,
            static_cast<std::uint64_t>(worker.data_pattern));
  EXPECT_EQ(field_descriptor(FieldId::transactions_per_connection).default_value,
            worker.transactions_per_connection);
  EXPECT_EQ(field_descriptor(FieldId::fixed_seed).default_value, worker.fixed_seed);

  // A fresh GUI (docs/iometer-reference.md#icf-test-setup): run 0, ramp 0, cycling 1 1 LINEAR,
  // queue depth 1 32 2 EXPONENTIAL.
  const TestSetup setup;
  EXPECT_EQ(field_descriptor(FieldId::run_time).default_value, setup.run_time_s);
  EXPECT_EQ(field_descriptor(FieldId::ramp_up).default_value, setup.ramp_up_s);
  EXPECT_EQ(field_descriptor(FieldId::queue_depth_start).default_value, 1U);
  EXPECT_EQ(field_descriptor(FieldId::queue_depth_end).default_value, 32U);
  EXPECT_EQ(field_descriptor(FieldId::queue_depth_step).default_value, 2U);
  EXPECT_EQ(field_descriptor(FieldId::queue_depth_end).default_value, setup.queue_depth_cycling.end);
  EXPECT_EQ(field_descriptor(FieldId::worker_cycling_start).default_value, setup.worker_cycling.start);
  EXPECT_EQ(field_descriptor(FieldId::target_cycling_step).default_value, setup.target_cycling.step);
}

TEST(FieldDescriptors, PercentagesAreZeroToHundredAndCountsStartAtOne) {
  for (const FieldDescriptor& d : all_field_descriptors()) {
    if (d.unit == FieldUnit::percent) {
      EXPECT_EQ(d.min_value, 0U) << d.key;
      EXPECT_EQ(d.max_value, 100U) << d.key;
    }
  }
  EXPECT_EQ(field_descriptor(FieldId::size).min_value, 1U);
  EXPECT_EQ(field_descriptor(FieldId::burst).min_value, 1U);
  EXPECT_EQ(field_descriptor(FieldId::outstanding_ios).min_value, 1U);
  EXPECT_EQ(field_descriptor(FieldId::data_pattern).max_value, 2U);
  EXPECT_EQ(field_descriptor(FieldId::queue_depth_end).max_value,
            field_descriptor(FieldId::outstanding_ios).max_value);
}

TEST(CheckField, ReportsContextFieldAndBound) {
  EXPECT_TRUE(check_field(FieldId::percent_reads, 100, "ctx"));
  const auto high = check_field(FieldId::percent_reads, 101, "spec 'A' line 3");
  ASSERT_FALSE(high);
  EXPECT_EQ(high.error().message(), "spec 'A' line 3: '% reads' is 101, must be at most 100");
  EXPECT_EQ(high.error().field(), "percent_reads");
  EXPECT_EQ(high.error().code(), ErrorCode::invalid_argument);
  const auto low = check_field(FieldId::outstanding_ios, 0, "worker 'W'");
  ASSERT_FALSE(low);
  EXPECT_EQ(low.error().message(), "worker 'W': 'Number of outstanding IOs' is 0, must be at least 1");
}

// ---- the ranges are what validate() enforces ----------------------------------------------

void set_line_field(AccessSpecLine& line, FieldId id, std::uint32_t value) {
  switch (id) {
    case FieldId::size: line.size_bytes = value; break;
    case FieldId::percent_of_size: line.percent_of_size = value; break;
    case FieldId::percent_reads: line.percent_reads = value; break;
    case FieldId::percent_random: line.percent_random = value; break;
    case FieldId::delay: line.delay_ms = value; break;
    case FieldId::burst: line.burst_transactions = value; break;
    case FieldId::align: line.align_bytes = value; break;
    case FieldId::reply: line.reply_bytes = value; break;
    default: FAIL() << "not a spec-line field";
  }
}

Result<void> validate_line_value(FieldId id, std::uint64_t value) {
  AccessSpec spec{"Probe", DefaultAssignment::none, {AccessSpecLine{}, AccessSpecLine{}}};
  spec.lines[1].percent_of_size = 0;
  set_line_field(spec.lines[0], id, static_cast<std::uint32_t>(value));
  if (id == FieldId::percent_of_size && value <= 100) {
    spec.lines[1].percent_of_size = static_cast<std::uint32_t>(100 - value);
  }
  return validate(spec);
}

void expect_rejected(const Result<void>& result, const FieldDescriptor& d, const std::string& bound) {
  ASSERT_FALSE(result) << d.key;
  EXPECT_EQ(result.error().field(), d.key);
  EXPECT_NE(result.error().message().find("'" + std::string(d.icf_name) + "'"), std::string::npos)
      << result.error().message();
  EXPECT_NE(result.error().message().find(bound), std::string::npos) << result.error().message();
}

TEST(DescriptorRanges, ValidateSpecEnforcesEverySpecLineRange) {
  for (const FieldDescriptor& d : field_descriptors(FieldGroup::spec_line)) {
    SCOPED_TRACE(std::string(d.key));
    EXPECT_TRUE(validate_line_value(d.id, d.min_value));
    EXPECT_TRUE(validate_line_value(d.id, d.max_value));
    if (d.min_value > 0) {
      expect_rejected(validate_line_value(d.id, d.min_value - 1), d,
                      "must be at least " + std::to_string(d.min_value));
    }
    if (d.max_value < kU32Max) {
      expect_rejected(validate_line_value(d.id, d.max_value + 1), d,
                      "must be at most " + std::to_string(d.max_value));
    }
  }
}

TEST(DescriptorRanges, TransferSizesStopAtLinuxsLargestSingleTransfer) {
  const FieldDescriptor& size = field_descriptor(FieldId::size);
  EXPECT_EQ(size.max_value, 2147479552U);  // INT_MAX rounded down to 4 KiB
  EXPECT_FALSE(validate_line_value(FieldId::size, 2147483648U));
  EXPECT_FALSE(validate_line_value(FieldId::reply, 2147483648U));
}

void set_worker_field(Worker& worker, FieldId id, std::uint64_t value) {
  switch (id) {
    case FieldId::outstanding_ios: worker.outstanding_ios = static_cast<std::uint32_t>(value); break;
    case FieldId::max_disk_size_sectors: worker.maximum_disk_size_sectors = value; break;
    case FieldId::starting_sector: worker.starting_sector = value; break;
    case FieldId::data_pattern: worker.data_pattern = static_cast<DataPattern>(value); break;
    case FieldId::transactions_per_connection:
      worker.transactions_per_connection = static_cast<std::uint32_t>(value);
      break;
    case FieldId::fixed_seed: worker.fixed_seed = value; break;
    default: FAIL() << "not a worker field";
  }
}

Result<void> validate_worker_value(FieldId id, std::uint64_t value) {
  Worker worker;
  worker.name = "Worker 1";
  set_worker_field(worker, id, value);
  TestPlan plan;
  plan.managers = std::vector<Manager>{Manager{1, "hostA", "", {worker}}};
  return validate(plan);
}

std::uint64_t type_max(FieldId id) {
  switch (id) {
    case FieldId::max_disk_size_sectors:
    case FieldId::starting_sector:
    case FieldId::fixed_seed: return std::numeric_limits<std::uint64_t>::max();
    case FieldId::data_pattern: return std::numeric_limits<std::uint8_t>::max();
    default: return kU32Max;
  }
}

TEST(DescriptorRanges, ValidatePlanEnforcesEveryWorkerRange) {
  for (const FieldDescriptor& d : field_descriptors(FieldGroup::worker)) {
    SCOPED_TRACE(std::string(d.key));
    EXPECT_TRUE(validate_worker_value(d.id, d.min_value));
    EXPECT_TRUE(validate_worker_value(d.id, d.max_value));
    if (d.min_value > 0) {
      expect_rejected(validate_worker_value(d.id, d.min_value - 1), d,
                      "must be at least " + std::to_string(d.min_value));
    }
    if (d.max_value < type_max(d.id)) {
      const auto result = validate_worker_value(d.id, d.max_value + 1);
      expect_rejected(result, d, "must be at most " + std::to_string(d.max_value));
      if (!result) {
        EXPECT_NE(result.error().message().find("worker 'Worker 1'"), std::string::npos);
      }
    }
  }
}

void set_setup_field(TestSetup& setup, FieldId id, std::uint32_t value) {
  switch (id) {
    case FieldId::run_time: setup.run_time_s = value; break;
    case FieldId::ramp_up: setup.ramp_up_s = value; break;
    case FieldId::queue_depth_start:
      setup.queue_depth_cycling.start = value;
      setup.queue_depth_cycling.end = std::max(value, setup.queue_depth_cycling.end);
      break;
    case FieldId::queue_depth_end:
      setup.queue_depth_cycling.end = value;
      // Keep start valid and not above the end, so that only the end can be at fault.
      setup.queue_depth_cycling.start = std::min(std::max(value, 1U), setup.queue_depth_cycling.start);
      break;
    case FieldId::queue_depth_step: setup.queue_depth_cycling.step = value; break;
    case FieldId::worker_cycling_start: setup.worker_cycling.start = value; break;
    case FieldId::worker_cycling_step: setup.worker_cycling.step = value; break;
    case FieldId::target_cycling_start: setup.target_cycling.start = value; break;
    case FieldId::target_cycling_step: setup.target_cycling.step = value; break;
    default: FAIL() << "not a test-setup field";
  }
}

Result<void> validate_setup_value(FieldId id, std::uint64_t value) {
  TestPlan plan;
  plan.setup = TestSetup{};
  set_setup_field(*plan.setup, id, static_cast<std::uint32_t>(value));
  return validate(plan);
}

TEST(DescriptorRanges, ValidatePlanEnforcesEveryTestSetupRange) {
  for (const FieldDescriptor& d : field_descriptors(FieldGroup::test_setup)) {
    SCOPED_TRACE(std::string(d.key));
    EXPECT_TRUE(validate_setup_value(d.id, d.min_value));
    EXPECT_TRUE(validate_setup_value(d.id, d.max_value));
    if (d.min_value > 0) {
      expect_rejected(validate_setup_value(d.id, d.min_value - 1), d,
                      "must be at least " + std::to_string(d.min_value));
    }
    if (d.max_value < kU32Max) {
      expect_rejected(validate_setup_value(d.id, d.max_value + 1), d,
                      "must be at most " + std::to_string(d.max_value));
    }
  }
}

}  // namespace
}  // namespace iomark::access_specs
