// Pins every field of the legacy structures (docs/iometer-reference.md#wire-structs) at its byte
// offset, with the offsets written out as the spec gives them (the union starts at byte 8 of a
// Data_Message).

#include <gtest/gtest.h>

#include "block_bytes.hpp"
#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/legacy/test_spec.hpp"
#include "iomark/legacy/wire.hpp"

namespace iomark::legacy {
namespace {

using test::read_f64;
using test::read_i32;
using test::read_le;
using test::read_text;

constexpr std::size_t kUnion = 8;

TEST(LegacyLayout, StructureSizesMatchTheSpec) {
  EXPECT_EQ(kMessageBytes, 8U);
  EXPECT_EQ(kDataMessageBytes, 888'840U);
  EXPECT_EQ(manager_info_layout::kBytes, 350U);
  EXPECT_EQ(access_spec_layout::kBytes, 32U);
  EXPECT_EQ(test_spec_layout::kBytes, 3332U);
  EXPECT_EQ(target_spec_layout::kBytes, 434U);
  EXPECT_EQ(raw_result_layout::kBytes, 296U);
  EXPECT_EQ(worker_results_layout::kBytes, 606'228U);
  EXPECT_EQ(manager_results_layout::kBytes, 4640U);
  // The union is as large as its largest member, Target_Spec[2048].
  EXPECT_EQ(kDataMessageBytes - kUnion, 2048U * 434U);
  EXPECT_EQ(make_data_block().size(), 888'840U);
}

TEST(LegacyLayout, MessageIsPurposeThenData) {
  const auto bytes = encode_message({Purpose::set_access, -4});
  EXPECT_EQ(read_le(bytes, 0, 4), 0x1000000CU);
  EXPECT_EQ(read_i32(bytes, 4), -4);
}

TEST(LegacyLayout, PurposeCodes) {
  EXPECT_EQ(static_cast<std::uint32_t>(Purpose::login), 0x10000001U);
  EXPECT_EQ(static_cast<std::uint32_t>(Purpose::report_update), 0x10000009U);
  EXPECT_EQ(static_cast<std::uint32_t>(Purpose::set_targets), 0x1000000BU);
  EXPECT_EQ(static_cast<std::uint32_t>(Purpose::wrong_version), 0x10000010U);
  EXPECT_EQ(static_cast<std::uint32_t>(Purpose::prep_disks), 0x00100001U);
  EXPECT_EQ(static_cast<std::uint32_t>(Purpose::exit), 0x01000004U);
  EXPECT_EQ(to_string(Purpose::report_targets), "REPORT_TARGETS");
  EXPECT_FALSE(is_known(static_cast<Purpose>(0x10000011)));
}

TEST(LegacyLayout, VersionCode) {
  EXPECT_EQ(version_code("1.1.0").value(), 0x01000100);
  EXPECT_EQ(version_code("2.3.4").value(), 0x02000304);
  EXPECT_FALSE(version_code("1.1").has_value());
  EXPECT_FALSE(version_code("1.256.0").has_value());
  EXPECT_FALSE(version_code("1.1.0x").has_value());
}

TEST(LegacyLayout, ManagerInfoFields) {
  ManagerInfo info{"1.1.0", "dynamo-a", "10.1.2.3", 40123, 16, 2.6e9};
  const auto block = encode_manager_info(info).value();
  EXPECT_EQ(read_i32(block, 0), 888'840);
  EXPECT_EQ(read_text(block, kUnion + 0), "1.1.0");
  EXPECT_EQ(read_text(block, kUnion + 80), "dynamo-a");
  EXPECT_EQ(read_text(block, kUnion + 208), "10.1.2.3");
  EXPECT_EQ(read_le(block, kUnion + 336, 2), 40123U);
  EXPECT_EQ(read_i32(block, kUnion + 338), 16);
  EXPECT_EQ(read_f64(block, kUnion + 342), 2.6e9);
}

TEST(LegacyLayout, TestSpecInWireOrder) {
  access_specs::AccessSpec spec{"mixed", access_specs::DefaultAssignment::disk,
                                {{4096, 60, 67, 100, 5, 2, 512, 0}, {65536, 40, 0, 0, 0, 1, 0, 1024}}};
  const auto block = encode_test_spec(spec).value();
  EXPECT_EQ(read_text(block, kUnion + 0), "mixed");
  EXPECT_EQ(read_i32(block, kUnion + 128), 2);
  const std::size_t line0 = kUnion + 132;
  EXPECT_EQ(read_i32(block, line0 + 0), 60);   // of_size
  EXPECT_EQ(read_i32(block, line0 + 4), 67);   // reads
  EXPECT_EQ(read_i32(block, line0 + 8), 100);  // random
  EXPECT_EQ(read_i32(block, line0 + 12), 5);   // delay
  EXPECT_EQ(read_i32(block, line0 + 16), 2);   // burst
  EXPECT_EQ(read_le(block, line0 + 20, 4), 512U);   // align
  EXPECT_EQ(read_le(block, line0 + 24, 4), 0U);     // reply
  EXPECT_EQ(read_le(block, line0 + 28, 4), 4096U);  // size
  const std::size_t line1 = line0 + 32;
  EXPECT_EQ(read_i32(block, line1 + 0), 40);
  EXPECT_EQ(read_le(block, line1 + 24, 4), 1024U);
  EXPECT_EQ(read_le(block, line1 + 28, 4), 65536U);
  EXPECT_EQ(read_i32(block, line1 + 32), -1);  // terminator
}

TEST(LegacyLayout, IdleSpecIsATerminatorFirst) {
  const auto block = encode_test_spec({"Idle", access_specs::DefaultAssignment::none, {}}).value();
  EXPECT_EQ(read_i32(block, kUnion + 132), -1);
}

TEST(LegacyLayout, DiskTargetSpecFields) {
  TargetSpec target;
  target.name = "/tmp/x [ext4]";
  target.read_only = true;
  target.type = target_type::kLogicalDisk | target_type::kActive;
  target.details = DiskDetails{true, true, false, 4096, 1'000'000, 2048};
  target.queue_depth = 32;
  target.data_pattern = DataPattern::full_random;
  target.transactions_per_connection = 7;
  target.random_seed = 0x1122334455667788ULL;
  target.use_fixed_seed = true;
  target.fixed_seed_value = 0x99AABBCCDDEEFF00ULL;
  const std::vector<TargetSpec> list{TargetSpec{}, target};
  const auto block = encode_target_list(list).value();
  EXPECT_EQ(read_i32(block, 4), 2);  // count
  const std::size_t t = kUnion + 434;  // the second target
  EXPECT_EQ(read_text(block, t + 0), "/tmp/x [ext4]");
  EXPECT_EQ(read_i32(block, t + 240), 1);  // read_only
  EXPECT_EQ(read_i32(block, t + 248), 0);  // test_connection_rate
  EXPECT_EQ(read_le(block, t + 252, 4), 0xCA000000U);
  EXPECT_EQ(read_i32(block, t + 256 + 20), 1);  // has_partitions
  EXPECT_EQ(read_i32(block, t + 256 + 24), 1);  // not_mounted
  EXPECT_EQ(read_i32(block, t + 256 + 28), 0);  // ready
  EXPECT_EQ(read_i32(block, t + 256 + 32), 4096);
  EXPECT_EQ(read_le(block, t + 256 + 36, 8), 1'000'000U);
  EXPECT_EQ(read_le(block, t + 256 + 44, 8), 2048U);
  EXPECT_EQ(read_i32(block, t + 402), 32);
  EXPECT_EQ(read_i32(block, t + 406), 2);
  EXPECT_EQ(read_i32(block, t + 410), 7);
  EXPECT_EQ(read_le(block, t + 414, 8), 0x1122334455667788ULL);
  EXPECT_EQ(read_i32(block, t + 422), 1);
  EXPECT_EQ(read_le(block, t + 426, 8), 0x99AABBCCDDEEFF00ULL);
}

TEST(LegacyLayout, TcpTargetSpecFields) {
  TargetSpec target;
  target.name = "127.0.0.1";
  target.type = target_type::kTcpServer;
  target.test_connection_rate = true;
  target.details = TcpDetails{5001, "127.0.0.2", 6002};
  const std::vector<TargetSpec> list{target};
  const auto block = encode_target_list(list).value();
  const std::size_t t = kUnion;
  EXPECT_EQ(read_le(block, t + 252, 4), 0x800C8000U);
  EXPECT_EQ(read_i32(block, t + 248), 1);
  EXPECT_EQ(read_le(block, t + 256 + 0, 4), 5001U);
  EXPECT_EQ(read_text(block, t + 256 + 4), "127.0.0.2");
  EXPECT_EQ(read_le(block, t + 256 + 84, 4), 6002U);
}

TEST(LegacyLayout, TargetTypeMasks) {
  EXPECT_TRUE(is_type(target_type::kPhysicalDiskHasPartitions, target_type::kPhysicalDisk));
  EXPECT_TRUE(is_type(target_type::kLogicalDisk, target_type::kGenericDisk));
  EXPECT_FALSE(is_type(target_type::kLogicalDisk, target_type::kPhysicalDisk));
  EXPECT_TRUE(is_type(target_type::kTcpClient, target_type::kGenericClient));
  EXPECT_TRUE(is_type(target_type::kTcpClient, target_type::kGenericTcp));
  EXPECT_FALSE(is_type(target_type::kTcpClient, target_type::kGenericServer));
  EXPECT_TRUE(is_type(target_type::kViServer, target_type::kGenericNet));
}

TEST(LegacyLayout, RawResultFields) {
  RawResult r;
  r.bytes_read = 1;
  r.bytes_written = 2;
  r.read_count = 3;
  r.write_count = 4;
  r.transaction_count = 5;
  r.connection_count = 6;
  r.read_errors = 7;
  r.write_errors = 8;
  r.max_raw_read_latency = 9;
  r.read_latency_sum = 10;
  r.max_raw_write_latency = 11;
  r.write_latency_sum = 12;
  r.max_raw_transaction_latency = 13;
  r.max_raw_connection_latency = 14;
  r.transaction_latency_sum = 15;
  r.connection_latency_sum = 16;
  r.counter_time = 17;
  for (std::size_t i = 0; i < 21; ++i) r.latency_bins[i] = 100 + i;
  const auto block = encode_worker_results({1000, 5000, {RawResult{}, r}}).value();
  EXPECT_EQ(read_le(block, kUnion + 0, 8), 1000U);
  EXPECT_EQ(read_le(block, kUnion + 8, 8), 5000U);
  EXPECT_EQ(read_i32(block, kUnion + 16), 2);
  const std::size_t at = kUnion + 20 + 296;
  const std::size_t u64_offsets[] = {0, 8, 16, 24, 32, 40};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(read_le(block, at + u64_offsets[i], 8), i + 1);
  EXPECT_EQ(read_le(block, at + 48, 4), 7U);
  EXPECT_EQ(read_le(block, at + 52, 4), 8U);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(read_le(block, at + 56 + 8 * i, 8), 9 + i) << "offset " << 56 + 8 * i;
  EXPECT_EQ(read_le(block, at + 120, 8), 17U);
  for (std::size_t i = 0; i < 21; ++i) EXPECT_EQ(read_le(block, at + 128 + 8 * i, 8), 100 + i);
}

TEST(LegacyLayout, ManagerResultsFields) {
  ManagerResults m;
  m.time_counter = {11, 22};
  m.cpus = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
  m.tcp_retransmissions_per_second = 0.5;
  m.nics = {{100, 1, 2}};
  const auto block = encode_manager_results(m).value();
  EXPECT_EQ(read_le(block, kUnion + 0, 8), 11U);
  EXPECT_EQ(read_le(block, kUnion + 8, 8), 22U);
  EXPECT_EQ(read_i32(block, kUnion + 16), 2);
  EXPECT_EQ(read_f64(block, kUnion + 20), 1.0);
  EXPECT_EQ(read_f64(block, kUnion + 20 + 8 * 6), 7.0);  // CPU 1, total
  EXPECT_EQ(read_f64(block, kUnion + 20 + 8 * 11), 12.0);
  EXPECT_EQ(read_f64(block, kUnion + 3092), 0.5);
  EXPECT_EQ(read_i32(block, kUnion + 3100), 1);
  EXPECT_EQ(read_f64(block, kUnion + 3104), 100.0);
  EXPECT_EQ(read_f64(block, kUnion + 3104 + 16), 2.0);
}

}  // namespace
}  // namespace iomark::legacy
