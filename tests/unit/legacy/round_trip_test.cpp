// read(write(x)) == x for every legacy structure, and the LOGIN check.

#include <gtest/gtest.h>

#include "sample_blocks.hpp"

namespace iomark::legacy {
namespace {

TEST(LegacyRoundTrip, Message) {
  for (const auto purpose : {Purpose::login, Purpose::exit, Purpose::prep_disks, static_cast<Purpose>(0x7eadbeef)}) {
    const Message message{purpose, kManager};
    EXPECT_EQ(decode_message(encode_message(message)).value(), message);
  }
}

TEST(LegacyRoundTrip, ManagerInfo) {
  const auto info = test::sample_manager_info();
  EXPECT_EQ(decode_manager_info(encode_manager_info(info).value()).value(), info);
  auto local = info;
  local.network_address.clear();  // Dynamo without -m
  EXPECT_EQ(decode_manager_info(encode_manager_info(local).value()).value(), local);
}

TEST(LegacyRoundTrip, TestSpec) {
  const auto spec = test::sample_spec();
  EXPECT_EQ(decode_test_spec(encode_test_spec(spec).value()).value(), spec);
  const access_specs::AccessSpec idle{"Idle", access_specs::DefaultAssignment::none, {}};
  EXPECT_EQ(decode_test_spec(encode_test_spec(idle).value()).value(), idle);
}

TEST(LegacyRoundTrip, TestSpecWithAllHundredLinesHasNoTerminator) {
  access_specs::AccessSpec full{"full", access_specs::DefaultAssignment::none, {}};
  for (std::uint32_t i = 0; i < 100; ++i) full.lines.push_back({512 * (i + 1), 1, i, 100 - i, i, 1, 0, 0});
  EXPECT_EQ(decode_test_spec(encode_test_spec(full).value()).value(), full);
  full.lines.push_back({});
  EXPECT_EQ(encode_test_spec(full).error().code(), ErrorCode::invalid_argument);
}

TEST(LegacyRoundTrip, TargetListForAssignment) {
  const auto targets = test::sample_targets();
  EXPECT_EQ(decode_target_list(encode_target_list(targets).value(), TargetListUse::assignment).value(), targets);
  EXPECT_TRUE(decode_target_list(encode_target_list({}).value(), TargetListUse::assignment).value().empty());
}

TEST(LegacyRoundTrip, DiscoveryKeepsNamesTypesAndDiskFactsOnly) {
  const auto decoded =
      decode_target_list(encode_target_list(test::sample_targets()).value(), TargetListUse::discovery).value();
  ASSERT_EQ(decoded.size(), 3U);
  EXPECT_EQ(decoded[0].name, "/tmp/iomark-dyn [ext4]");
  EXPECT_EQ(std::get<DiskDetails>(decoded[0].details).sector_size, 4096U);
  EXPECT_EQ(decoded[0].queue_depth, 1U);  // a discovery list's settings are leftovers
  EXPECT_EQ(decoded[2].type, target_type::kTcpClient | target_type::kActive);
  EXPECT_EQ(std::get<TcpDetails>(decoded[2].details), TcpDetails{});
}

TEST(LegacyRoundTrip, WorkerResults) {
  const auto results = test::sample_worker_results();
  EXPECT_EQ(decode_worker_results(encode_worker_results(results).value()).value(), results);
}

TEST(LegacyRoundTrip, ManagerResults) {
  const auto results = test::sample_manager_results();
  EXPECT_EQ(decode_manager_results(encode_manager_results(results).value()).value(), results);
  EXPECT_EQ(decode_manager_results(encode_manager_results({}).value()).value(), ManagerResults{});
}

TEST(LegacyLogin, AcceptsAny1_1Subminor) {
  EXPECT_TRUE(check_login({Purpose::login, 0x01000100}).has_value());
  EXPECT_TRUE(check_login({Purpose::login, 0x01000107}).has_value());
}

TEST(LegacyLogin, RejectsOtherVersionsAndPurposes) {
  const auto old = check_login({Purpose::login, 20060727});
  ASSERT_FALSE(old.has_value());
  EXPECT_EQ(old.error().code(), ErrorCode::unsupported);
  EXPECT_NE(old.error().message().find("20060727"), std::string::npos);
  const auto newer = check_login({Purpose::login, 0x01000200});
  ASSERT_FALSE(newer.has_value());
  EXPECT_NE(newer.error().message().find("1.2.0"), std::string::npos);
  EXPECT_EQ(check_login({Purpose::add_workers, 0x01000100}).error().code(), ErrorCode::parse_error);
}

}  // namespace
}  // namespace iomark::legacy
