// Blocks a broken or hostile peer could send: each gives a named error (code and field),
// never a crash and never a read past the block.

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "block_bytes.hpp"
#include "sample_blocks.hpp"

namespace iomark::legacy {
namespace {

using test::write_le;

constexpr std::size_t kUnion = 8;

template <typename T>
Error rejection(const Result<T>& decoded) {
  if (decoded) {
    ADD_FAILURE() << "a hostile block was accepted";
    return Error(ErrorCode::internal, "accepted");
  }
  return decoded.error();
}

// Every decoder, so each hostile shape can be put to all of them.
const std::vector<std::pair<std::string, std::function<bool(std::span<const std::byte>)>>>& decoders() {
  static const std::vector<std::pair<std::string, std::function<bool(std::span<const std::byte>)>>> all{
      {"manager_info", [](auto b) { return decode_manager_info(b).has_value(); }},
      {"test_spec", [](auto b) { return decode_test_spec(b).has_value(); }},
      {"targets/discovery", [](auto b) { return decode_target_list(b, TargetListUse::discovery).has_value(); }},
      {"targets/assignment", [](auto b) { return decode_target_list(b, TargetListUse::assignment).has_value(); }},
      {"worker_results", [](auto b) { return decode_worker_results(b).has_value(); }},
      {"manager_results", [](auto b) { return decode_manager_results(b).has_value(); }},
  };
  return all;
}

TEST(LegacyHostile, ShortAndLongBlocksAreRejectedByEveryDecoder) {
  for (const std::size_t size : {std::size_t{0}, std::size_t{7}, kDataMessageBytes - 1, kDataMessageBytes + 1}) {
    const std::vector<std::byte> block(size);
    for (const auto& [name, decode] : decoders()) EXPECT_FALSE(decode(block)) << name << " took " << size << " bytes";
  }
  const auto error = rejection(decode_worker_results(std::vector<std::byte>(100)));
  EXPECT_EQ(error.code(), ErrorCode::parse_error);
  EXPECT_EQ(error.field(), "Data_Message");
  EXPECT_EQ(decode_message(std::vector<std::byte>(7)).error().code(), ErrorCode::parse_error);
}

TEST(LegacyHostile, LoginBlockWithWrongSizeField) {
  auto block = encode_manager_info(test::sample_manager_info()).value();
  write_le(block, 0, 4, 888'832);  // what an unpacked build would say
  const auto error = rejection(decode_manager_info(block));
  EXPECT_EQ(error.field(), "Data_Message.size");
  EXPECT_NE(error.message().find("packing"), std::string::npos);
}

TEST(LegacyHostile, LoginBlockWithUnterminatedOrControlStrings) {
  auto block = encode_manager_info(test::sample_manager_info()).value();
  std::memset(block.data() + kUnion + 80, 'A', 128);
  EXPECT_EQ(rejection(decode_manager_info(block)).field(), "Manager_Info.names[0]");
  block = encode_manager_info(test::sample_manager_info()).value();
  block[kUnion + 208] = std::byte{0x1b};
  EXPECT_EQ(rejection(decode_manager_info(block)).field(), "Manager_Info.names[1]");
}

TEST(LegacyHostile, LoginBlockWithImplausibleNumbers) {
  auto block = encode_manager_info(test::sample_manager_info()).value();
  write_le(block, kUnion + 338, 4, 0);
  EXPECT_EQ(rejection(decode_manager_info(block)).field(), "Manager_Info.processors");
  block = encode_manager_info(test::sample_manager_info()).value();
  write_le(block, kUnion + 342, 8, 0x7FF8000000000000ULL);  // NaN
  EXPECT_EQ(rejection(decode_manager_info(block)).field(), "Manager_Info.timer_resolution");
  write_le(block, kUnion + 342, 8, 0xBFF0000000000000ULL);  // -1.0
  EXPECT_EQ(rejection(decode_manager_info(block)).field(), "Manager_Info.timer_resolution");
}

TEST(LegacyHostile, TestSpecOutOfRangeFields) {
  auto block = encode_test_spec(test::sample_spec()).value();
  write_le(block, kUnion + 132 + 32 + 4, 4, 101);  // line 1 reads
  EXPECT_EQ(rejection(decode_test_spec(block)).field(), "Test_Spec.access[1].reads");
  block = encode_test_spec(test::sample_spec()).value();
  write_le(block, kUnion + 132 + 16, 4, 0xFFFFFFFE);  // line 0 burst = -2
  EXPECT_EQ(rejection(decode_test_spec(block)).field(), "Test_Spec.access[0].burst");
  block = encode_test_spec(test::sample_spec()).value();
  write_le(block, kUnion + 132, 4, 0xFFFFFFFE);  // of_size -2 is not the terminator
  EXPECT_EQ(rejection(decode_test_spec(block)).field(), "Test_Spec.access[0].of_size");
  block = encode_test_spec(test::sample_spec()).value();
  write_le(block, kUnion + 132 + 32 + 28, 4, 0);  // line 1 size 0: Dynamo would move no byte
  const auto size = rejection(decode_test_spec(block));
  EXPECT_EQ(size.field(), "Test_Spec.access[1].size");
  EXPECT_NE(size.describe().find("0 is outside 1.."), std::string::npos) << size.describe();
}

// Dynamo reads on past the list when its lines do not make 100 %: refused, with the field.
TEST(LegacyHostile, TestSpecWhoseLinesNeverMakeAHundredPercent) {
  auto block = encode_test_spec(test::sample_spec()).value();
  write_le(block, kUnion + 132 + 32, 4, 0xFFFFFFFF);  // -1 right after line 0's 80 %
  const auto early_end = rejection(decode_test_spec(block));
  EXPECT_EQ(early_end.field(), "Test_Spec.access[1].of_size");
  EXPECT_NE(early_end.describe().find("80 %"), std::string::npos) << early_end.describe();
  block = encode_test_spec(test::sample_spec()).value();
  for (std::size_t line = 1; line < 100; ++line) write_le(block, kUnion + 132 + 32 * line, 4, 0);
  EXPECT_EQ(rejection(decode_test_spec(block)).field(), "Test_Spec.access");
}

TEST(LegacyHostile, TestSpecFieldsDynamoNeverReadsAreIgnored) {
  auto block = encode_test_spec(test::sample_spec()).value();
  write_le(block, kUnion + 128, 4, 4);  // default assignment: the GUI's own, any number
  auto decoded = decode_test_spec(block);
  ASSERT_TRUE(decoded) << decoded.error().describe();
  EXPECT_EQ(decoded->default_assignment, access_specs::DefaultAssignment::none);
  EXPECT_EQ(decoded->lines, test::sample_spec().lines);
}

TEST(LegacyHostile, TargetCountsOutOfRange) {
  auto block = encode_target_list(test::sample_targets()).value();
  for (const std::uint32_t count : {2049U, 0xFFFFFFFFU, 0x7FFFFFFFU}) {
    write_le(block, 4, 4, count);
    for (const auto use : {TargetListUse::discovery, TargetListUse::assignment}) {
      const auto error = rejection(decode_target_list(block, use));
      EXPECT_EQ(error.field(), "Data_Message.count");
    }
  }
  // A count larger than what was written reaches zero-filled entries: type 0 is invalid.
  write_le(block, 4, 4, 2048);
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::discovery)).field(), "Target_Spec[3].type");
}

TEST(LegacyHostile, TargetFieldsOutOfRange) {
  const auto fresh = [] { return encode_target_list(test::sample_targets()).value(); };
  auto block = fresh();
  write_le(block, kUnion + 252, 4, 0x12345678);
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::discovery)).field(), "Target_Spec[0].type");
  block = fresh();
  write_le(block, kUnion + 434 + 252, 4, target_type::kViClient);
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::discovery)).code(), ErrorCode::unsupported);
  block = fresh();
  write_le(block, kUnion + 256 + 32, 4, 0);  // sector size 0
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::discovery)).field(),
            "Target_Spec[0].disk_info.sector_size");
  // ... which IOmeter 1.1.0 sends in every assignment, and Dynamo never reads there.
  EXPECT_TRUE(decode_target_list(block, TargetListUse::assignment).has_value());
  block = fresh();
  write_le(block, kUnion + 402, 4, 0);  // queue depth 0
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::assignment)).field(), "Target_Spec[0].queue_depth");
  EXPECT_TRUE(decode_target_list(block, TargetListUse::discovery).has_value());
  block = fresh();
  write_le(block, kUnion + 434 + 406, 4, 3);
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::assignment)).field(), "Target_Spec[1].DataPattern");
  block = fresh();
  write_le(block, kUnion + 2 * 434 + 256 + 84, 4, 70000);
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::assignment)).field(), "Target_Spec[2].tcp_info");
  block = fresh();
  std::memset(block.data() + kUnion + 434, 'x', 80);
  EXPECT_EQ(rejection(decode_target_list(block, TargetListUse::discovery)).field(), "Target_Spec[1].name");
}

TEST(LegacyHostile, ResultsCountsAndValuesOutOfRange) {
  auto block = encode_worker_results(test::sample_worker_results()).value();
  write_le(block, kUnion + 16, 4, 2049);
  EXPECT_EQ(rejection(decode_worker_results(block)).field(), "Worker_Results.target_results.count");
  write_le(block, kUnion + 16, 4, 0x80000000U);
  EXPECT_EQ(rejection(decode_worker_results(block)).field(), "Worker_Results.target_results.count");
  block = encode_worker_results(test::sample_worker_results()).value();
  write_le(block, kUnion + 8, 8, 0);  // ends before it starts
  EXPECT_EQ(rejection(decode_worker_results(block)).field(), "Worker_Results.time");
  block = encode_worker_results(test::sample_worker_results()).value();
  write_le(block, kUnion + 20 + 296 + 128 + 8 * 20, 8, 0x8000000000000000ULL);
  EXPECT_EQ(rejection(decode_worker_results(block)).field(), "Raw_Result[1].latency_bin[20]");

  auto manager = encode_manager_results(test::sample_manager_results()).value();
  write_le(manager, kUnion + 16, 4, 65);
  EXPECT_EQ(rejection(decode_manager_results(manager)).field(), "Manager_Results.cpu_results.count");
  manager = encode_manager_results(test::sample_manager_results()).value();
  write_le(manager, kUnion + 3100, 4, 0xFFFFFFFF);
  EXPECT_EQ(rejection(decode_manager_results(manager)).field(), "Manager_Results.net_results.ni_count");
  manager = encode_manager_results(test::sample_manager_results()).value();
  write_le(manager, kUnion + 20 + 8, 8, 0x7FF0000000000000ULL);  // +inf user %
  EXPECT_EQ(rejection(decode_manager_results(manager)).field(),
            "Manager_Results.cpu_results.CPU_utilization[0][1]");
}

TEST(LegacyHostile, EncodersRefuseWhatDoesNotFit) {
  auto info = test::sample_manager_info();
  info.manager_name = std::string(128, 'n');
  EXPECT_EQ(encode_manager_info(info).error().field(), "Manager_Info.names[0]");
  auto targets = test::sample_targets();
  targets[1].details = TcpDetails{};
  EXPECT_EQ(encode_target_list(targets).error().field(), "Target_Spec[1].type");
  EXPECT_EQ(encode_target_list(std::vector<TargetSpec>(2049, test::sample_targets()[0])).error().field(),
            "Data_Message.count");
  WorkerResults too_many;
  too_many.targets.resize(2049);
  EXPECT_FALSE(encode_worker_results(too_many).has_value());
}

// Random garbage blocks: every decoder answers (value or error), and what it accepts
// encodes back to a block that decodes to the same value.
TEST(LegacyHostile, GarbageNeverCrashes) {
  std::mt19937_64 random(20261125);
  std::vector<std::byte> block(kDataMessageBytes);
  for (int round = 0; round < 20; ++round) {
    for (auto& b : block) b = static_cast<std::byte>(random());
    // Small counts and plausible sizes half of the time, so decoders get past the header.
    if (round % 2 == 0) {
      write_le(block, 0, 4, kDataMessageBytes);
      write_le(block, 4, 4, random() % 4);
      write_le(block, kUnion + 16, 4, random() % 4);
    }
    for (const auto& [name, decode] : decoders()) (void)decode(block);
    if (auto results = decode_worker_results(block)) {
      EXPECT_EQ(decode_worker_results(encode_worker_results(*results).value()).value(), *results);
    }
  }
}

}  // namespace
}  // namespace iomark::legacy
