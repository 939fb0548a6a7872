// Frames a broken or hostile peer could send: every one must give a named error (code and
// field path), never a crash and never a message that slips through.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "iomark/protocol/codec.hpp"
#include "iomark/protocol/frame.hpp"
#include "sample_messages.hpp"
#include "wire_writer.hpp"

namespace iomark::protocol {
namespace {

using test::WireWriter;
namespace field = test::envelope_field;

// What decode() says about `envelope` (which must be rejected).
Error rejection(const Envelope& envelope) {
  const auto decoded = decode(encode(envelope));
  if (decoded) {
    ADD_FAILURE() << "a " << message_name(envelope.message) << " with a broken field was accepted";
    return Error(ErrorCode::internal, "accepted");
  }
  return decoded.error();
}

Error rejection(const WireWriter& envelope) {
  const auto decoded = decode(envelope.data());
  if (decoded) {
    ADD_FAILURE() << "a hand-made envelope was accepted";
    return Error(ErrorCode::internal, "accepted");
  }
  return decoded.error();
}

// A message broken one way, and where decode() must say the problem is.
template <typename T>
struct Breakage {
  std::string expected_field;
  ErrorCode expected_code;
  std::function<void(T&)> breaks;
};

template <typename T>
void expect_rejections(const T& valid, const std::vector<Breakage<T>>& cases) {
  ASSERT_TRUE(decode(encode(Envelope{0, 0, valid})).has_value()) << "the unbroken message must pass";
  for (const auto& c : cases) {
    SCOPED_TRACE(c.expected_field);
    T broken = valid;
    c.breaks(broken);
    const auto error = rejection(Envelope{0, 0, broken});
    EXPECT_EQ(error.field(), c.expected_field) << error.describe();
    EXPECT_EQ(error.code(), c.expected_code) << error.describe();
    EXPECT_FALSE(error.message().empty());
  }
}

constexpr auto kRange = ErrorCode::invalid_argument;
constexpr auto kRule = ErrorCode::validation_error;

TEST(Hostile, HelloFields) {
  expect_rejections<Hello>(test::sample_hello(),
                           {
                               {"hello.name", kRange, [](Hello& m) { m.name.clear(); }},
                               {"hello.name", kRange, [](Hello& m) { m.name.assign(128, 'x'); }},
                               {"hello.name", kRange, [](Hello& m) { m.name = "evil\nname"; }},
                               {"hello.build", kRange, [](Hello& m) { m.build.clear(); }},
                               {"hello.address", kRange, [](Hello& m) { m.address.assign(256, 'a'); }},
                               {"hello.min_version", kRange, [](Hello& m) { m.min_version = 0; }},
                               {"hello.max_version", kRange, [](Hello& m) { m.max_version = m.min_version - 1; }},
                               {"hello.role", kRange, [](Hello& m) { m.role = static_cast<Role>(9); }},
                               {"hello.auth_mode", kRange, [](Hello& m) { m.auth_mode = static_cast<AuthMode>(0); }},
                           });
}

TEST(Hostile, InventoryFields) {
  expect_rejections<Inventory>(
      test::sample_inventory(),
      {
          {"inventory.host_name", kRange, [](Inventory& m) { m.host_name.clear(); }},
          {"inventory.cpu_count", kRange, [](Inventory& m) { m.cpu_count = 0; }},
          {"inventory.cpu_count", kRange, [](Inventory& m) { m.cpu_count = kMaxCpus + 1; }},
          {"inventory.block_devices[1].path", kRange, [](Inventory& m) { m.block_devices[1].path = "dev/sdb"; }},
          {"inventory.block_devices[0].path", kRange,
           [](Inventory& m) { m.block_devices[0].path = std::string("/dev/sd\0b", 9); }},
          {"inventory.block_devices[2].logical_sector_bytes", kRange,
           [](Inventory& m) { m.block_devices[2].logical_sector_bytes = 513; }},
          {"inventory.block_devices[0].mount_state", kRange,
           [](Inventory& m) { m.block_devices[0].mount_state = static_cast<MountState>(0); }},
          {"inventory.file_systems[1].free_bytes", kRule,
           [](Inventory& m) { m.file_systems[1].free_bytes = m.file_systems[1].total_bytes + 1; }},
          {"inventory.file_systems[0].type", kRange, [](Inventory& m) { m.file_systems[0].type.clear(); }},
          {"inventory.allowed_paths[1]", kRange, [](Inventory& m) { m.allowed_paths[1] = "relative"; }},
          {"inventory.engines", kRange, [](Inventory& m) { m.engines.clear(); }},
          {"inventory.engines[2]", kRange, [](Inventory& m) { m.engines[2] = "Thread Pool"; }},
          {"inventory.target_engines[1].path", kRange, [](Inventory& m) { m.target_engines[1].path = "iobw.tst"; }},
          {"inventory.target_engines[0].usable_engines[1]", kRange,
           [](Inventory& m) { m.target_engines[0].usable_engines[1] = "Linux AIO"; }},
          {"inventory.target_engines[1].choices", kRange, [](Inventory& m) { m.target_engines[1].choices.clear(); }},
          {"inventory.target_engines[0].choices[1].queue_depth", kRange,
           [](Inventory& m) { m.target_engines[0].choices[1].queue_depth = 0; }},
          {"inventory.target_engines[0].choices[0].queue_depth", kRange,
           [](Inventory& m) { m.target_engines[0].choices[0].queue_depth = kMaxOutstandingIosPerWorker + 1; }},
          {"inventory.target_engines[0].choices[0].block_bytes", kRange,
           [](Inventory& m) { m.target_engines[0].choices[0].block_bytes = 0; }},
          {"inventory.target_engines[0].choices[1].engine", kRange,
           [](Inventory& m) { m.target_engines[0].choices[1].engine.clear(); }},
          {"inventory.target_engines[0].choices[0].reason", kRange,
           [](Inventory& m) { m.target_engines[0].choices[0].reason.assign(kMaxEngineReasonBytes + 1, 'x'); }},
          {"inventory.target_engines", kRange,
           [](Inventory& m) { m.target_engines.resize(kMaxTargetEngines + 1, m.target_engines[1]); }},
      });
}

TEST(Hostile, InventoryOfAnAgentBeforeEngineChoicesDecodes) {
  // Fields 1..8 only, as agents wrote before target_engines (9) existed.
  constexpr std::uint32_t kInventoryField = 10;
  const auto old_inventory = WireWriter()
                                 .bytes(1, "old-agent")
                                 .varint(2, 4)
                                 .bytes(3, "Linux")
                                 .bytes(4, "6.1.0")
                                 .bytes(7, "/srv/bench")
                                 .bytes(8, "linux-aio")
                                 .bytes(8, "sync");
  const auto decoded = decode(WireWriter().message(kInventoryField, old_inventory).data());
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  const auto& inventory = std::get<Inventory>(decoded->message);
  EXPECT_EQ(inventory.host_name, "old-agent");
  EXPECT_EQ(inventory.engines, (std::vector<std::string>{"linux-aio", "sync"}));
  EXPECT_TRUE(inventory.target_engines.empty());
}

TEST(Hostile, AssignmentFields) {
  using access_specs::DataPattern;
  expect_rejections<Assignment>(
      test::sample_assignment(),
      {
          {"assignment.engine", kRange, [](Assignment& m) { m.engine = "io uring"; }},
          {"assignment.workers", kRange, [](Assignment& m) { m.workers.resize(kMaxWorkers + 1); }},
          {"assignment.workers[1].name", kRange, [](Assignment& m) { m.workers[1].name.clear(); }},
          {"assignment.workers[0].cpu", kRange, [](Assignment& m) { m.workers[0].cpu = kMaxCpus; }},
          {"assignment.workers[1].targets", kRange, [](Assignment& m) { m.workers[1].targets.clear(); }},
          {"assignment.workers[0].rate_iops", kRange, [](Assignment& m) { m.workers[0].rate_iops = -1; }},
          {"assignment.workers[0].rate_iops", kRange,
           [](Assignment& m) { m.workers[0].rate_iops = std::numeric_limits<double>::quiet_NaN(); }},
          {"assignment.workers[0].rate_iops", kRange, [](Assignment& m) { m.workers[0].rate_iops = 0.001; }},
          {"assignment.workers[0].rate_iops", kRange, [](Assignment& m) { m.workers[0].rate_iops = 2e8; }},
          {"assignment.workers[0].targets[1].path", kRange,
           [](Assignment& m) { m.workers[0].targets[1].path = "iobw.tst"; }},
          {"assignment.workers[1].targets[0].outstanding_ios", kRange,
           [](Assignment& m) { m.workers[1].targets[0].outstanding_ios = 0; }},
          {"assignment.workers[1].targets[0].outstanding_ios", kRange,
           [](Assignment& m) { m.workers[1].targets[0].outstanding_ios = 32769; }},
          {"assignment.workers[0].targets[0].starting_sector", kRange,
           [](Assignment& m) {
             m.workers[0].targets[0].maximum_size_sectors = 10;
             m.workers[0].targets[0].starting_sector = UINT64_MAX - 5;
           }},
          {"assignment.workers[0].targets[0].data_pattern", kRange,
           [](Assignment& m) { m.workers[0].targets[0].data_pattern = static_cast<DataPattern>(5); }},
          // Wire value 4 is DATA_PATTERN_REDUCTION, which needs its DataReduction message.
          {"assignment.workers[0].targets[0].data_reduction", kRange,
           [](Assignment& m) { m.workers[0].targets[0].data_pattern = static_cast<DataPattern>(3); }},
          {"assignment.workers[0].targets[1].data_reduction", kRange,
           [](Assignment& m) { m.workers[0].targets[1].data_reduction->compress_ratio = 0.5; }},
          {"assignment.workers[0].targets[1].data_reduction", kRange,
           [](Assignment& m) { m.workers[0].targets[1].data_reduction->dedupe_unit_bytes = 6000; }},
          {"assignment.workers[0].targets[1].data_reduction.iometer_pattern", kRange,
           [](Assignment& m) { m.workers[0].targets[1].data_pattern = static_cast<DataPattern>(7); }},
          {"assignment.workers[0].targets[0].transactions_per_connection", kRange,
           [](Assignment& m) { m.workers[0].targets[0].transactions_per_connection = 1U << 31; }},
          {"assignment.workers[0].spec.lines", kRange, [](Assignment& m) { m.workers[0].spec.lines.clear(); }},
          {"assignment.workers[0].spec.lines", kRange,
           [](Assignment& m) { m.workers[0].spec.lines.resize(access_specs::kMaxSpecLines + 1); }},
          {"assignment.workers[0].spec.default_assignment", kRange,
           [](Assignment& m) {
             m.workers[0].spec.default_assignment = static_cast<access_specs::DefaultAssignment>(4);
           }},
          // The spec library's own rules, reported under the spec's path.
          {"assignment.workers[1].spec.percent_of_size", kRule,
           [](Assignment& m) { m.workers[1].spec.lines[0].percent_of_size = 50; }},
          {"assignment.workers[0].spec.percent_reads", kRange,
           [](Assignment& m) { m.workers[0].spec.lines[1].percent_reads = 101; }},
      });
}

TEST(Hostile, RunControlFields) {
  expect_rejections<PrepareTargets>(
      PrepareTargets{{{"/data/iobw.tst", 1, access_specs::DataPattern::repeating_bytes, std::nullopt, 1}}},
      {
          {"prepare_targets.targets", kRange, [](PrepareTargets& m) { m.targets.clear(); }},
          {"prepare_targets.targets[0].path", kRange, [](PrepareTargets& m) { m.targets[0].path.clear(); }},
          {"prepare_targets.targets[0].precondition_spec", kRange,
           [](PrepareTargets& m) {
             m.targets[0].precondition_spec = access_specs::AccessSpec{"w", {}, {{4096, 100, 0, 100, 0, 1, 0, 0}}};
           }},
          {"prepare_targets.targets[0].precondition_spec", kRange,
           [](PrepareTargets& m) {
             m.targets[0].precondition_passes = 1;
             m.targets[0].precondition_spec = access_specs::AccessSpec{"r", {}, {{4096, 100, 100, 100, 0, 1, 0, 0}}};
           }},
          {"prepare_targets.targets[0].precondition_spec.percent_of_size", kRule,
           [](PrepareTargets& m) {
             m.targets[0].precondition_passes = 1;
             m.targets[0].precondition_spec = access_specs::AccessSpec{"w", {}, {{4096, 50, 0, 100, 0, 1, 0, 0}}};
           }},
      });
  expect_rejections<PrepareProgress>(
      PrepareProgress{"/data/iobw.tst", 5, 10},
      {
          {"prepare_progress.bytes_done", kRule, [](PrepareProgress& m) { m.bytes_done = 11; }},
      });
  expect_rejections<PhaseCommand>(
      PhaseCommand{1, Phase::stop},
      {
          {"phase_command.phase", kRange, [](PhaseCommand& m) { m.phase = static_cast<Phase>(0); }},
          {"phase_command.phase", kRange, [](PhaseCommand& m) { m.phase = static_cast<Phase>(7); }},
      });
}

TEST(Hostile, SessionFields) {
  expect_rejections<AuthResult>(
      AuthResult{false, "no"},
      {
          {"auth_result.reason", kRange, [](AuthResult& m) { m.reason.assign(kMaxTextBytes + 1, 'r'); }},
      });
  expect_rejections<ErrorReport>(
      ErrorReport{ErrorKind::busy, Error(ErrorCode::io_error, "x")},
      {
          {"error.kind", kRange, [](ErrorReport& m) { m.kind = static_cast<ErrorKind>(0); }},
          {"error.code", kRange,
           [](ErrorReport& m) { m.error = Error(static_cast<ErrorCode>(9), "code past the last one"); }},
          {"error.field", kRange,
           [](ErrorReport& m) { m.error = Error(ErrorCode::io_error, "x").in_field(std::string(5000, 'f')); }},
      });
}

TEST(Hostile, SampleFields) {
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  const auto infinity = std::numeric_limits<double>::infinity();
  expect_rejections<Sample>(
      test::sample_sample(),
      {
          {"sample.sequence", kRange, [](Sample& m) { m.sequence = 0; }},
          {"sample.run_time_ns", kRange, [](Sample& m) { m.run_time = Nanoseconds(-1); }},
          {"sample.interval_ns", kRange, [](Sample& m) { m.interval = Nanoseconds(-5); }},
          {"sample.phase", kRange, [](Sample& m) { m.phase = static_cast<SamplePhase>(3); }},
          {"sample.workers[1].worker_index", kRule, [](Sample& m) { m.workers[1].worker_index = 0; }},
          {"sample.workers[0].worker_index", kRange, [](Sample& m) { m.workers[0].worker_index = kMaxWorkers; }},
          {"sample.workers[0].window_ns", kRange, [](Sample& m) { m.workers[0].window = Nanoseconds(-1); }},
          {"sample.workers[0].targets[1].target_index", kRule,
           [](Sample& m) { m.workers[0].targets[1].target_index = 0; }},
          {"sample.workers[0].targets[0].counters.latency", kRule,
           [](Sample& m) { m.workers[0].targets[0].counters.reads.add(100); }},
          {"sample.workers[1].targets[0].counters.transactions", kRule,
           [](Sample& m) { m.workers[1].targets[0].counters.transactions = {0, 5, 0}; }},
          {"sample.workers[1].targets[0].counters.writes", kRule,
           [](Sample& m) { m.workers[1].targets[0].counters.writes = {1, 5, 6}; }},
          {"sample.cpus[1].cpu", kRule, [](Sample& m) { m.cpus[1].cpu = 0; }},
          {"sample.cpus[0].user_percent", kRange, [](Sample& m) { m.cpus[0].user_percent = 100.5; }},
          {"sample.cpus[0].total_percent", kRange, [nan](Sample& m) { m.cpus[0].total_percent = nan; }},
          {"sample.cpus[1].interrupts_per_second", kRange,
           [](Sample& m) { m.cpus[1].interrupts_per_second = -1; }},
          {"sample.network.packets_per_second", kRange,
           [infinity](Sample& m) { m.network.packets_per_second = infinity; }},
          // Finite, but past any host: results files could not hold its sum over a fleet.
          {"sample.network.segments_retransmitted_per_second", kRange,
           [](Sample& m) { m.network.segments_retransmitted_per_second = 1e300; }},
          {"sample.cpus[1].interrupts_per_second", kRange,
           [](Sample& m) { m.cpus[1].interrupts_per_second = 2e11; }},
      });
}

TEST(Hostile, GarbageIsNotAnEnvelope) {
  const auto error = rejection(WireWriter().varint(field::heartbeat, 1).bytes(field::hello, "\xff\xff\xff"));
  EXPECT_EQ(error.code(), ErrorCode::parse_error) << error.describe();
  EXPECT_EQ(error.field(), "envelope");
  const std::vector<std::byte> truncated_varint{std::byte{0x08}, std::byte{0xff}, std::byte{0xff}};
  EXPECT_EQ(decode(truncated_varint).error().code(), ErrorCode::parse_error);
}

TEST(Hostile, TextMustBeUtf8) {
  for (const std::string bad : {"bad \xc3\x28 name", "overlong \xc0\xaf", "surrogate \xed\xa0\x80",
                                "past U+10FFFF \xf4\x90\x80\x80", "cut \xe2\x82"}) {
    SCOPED_TRACE(bad);
    auto hello = test::sample_hello();
    hello.name = bad;
    const auto error = rejection(Envelope{0, 0, hello});
    EXPECT_EQ(error.field(), "hello.name") << error.describe();
    EXPECT_EQ(error.code(), ErrorCode::invalid_argument);
  }
  auto hello = test::sample_hello();
  hello.name = "Zürich-€-\xf0\x9f\x92\xbe";  // 2, 3 and 4 byte sequences
  EXPECT_TRUE(decode(encode(Envelope{0, 0, hello})).has_value());
}

TEST(Hostile, PathsNeedNotBeUtf8) {
  const Envelope envelope{0, 0, PrepareProgress{"/data/\xff\xfe.tst", 1, 2}};
  const auto decoded = decode(encode(envelope));
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  EXPECT_EQ(*decoded, envelope);
}

TEST(Hostile, EnvelopeWithoutMessage) {
  const auto error = rejection(WireWriter().varint(field::request_id, 5));
  EXPECT_EQ(error.code(), ErrorCode::validation_error) << error.describe();
  EXPECT_EQ(error.field(), "envelope");
  EXPECT_FALSE(decode(std::vector<std::byte>{}).has_value());
}

TEST(Hostile, MessageTypeFromTheFutureIsUnsupported) {
  const auto error = rejection(WireWriter().varint(field::request_id, 5).message(100, WireWriter().varint(1, 1)));
  EXPECT_EQ(error.code(), ErrorCode::unsupported) << error.describe();
}

TEST(Hostile, UnknownFieldsInAKnownMessageAreIgnored) {
  // A newer peer may add fields; this version reads what it knows.
  const auto decoded =
      decode(WireWriter().varint(field::correlation_id, 8).message(field::heartbeat, WireWriter().varint(1, 5).varint(42, 1)).data());
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  EXPECT_EQ(decoded->correlation_id, 8U);
  EXPECT_EQ(std::get<Heartbeat>(decoded->message).sequence, 5U);
}

TEST(Hostile, NonceMustBe32Bytes) {
  const auto error = rejection(WireWriter().message(field::auth_challenge, WireWriter().bytes(1, std::string(31, 'n'))));
  EXPECT_EQ(error.field(), "auth_challenge.nonce") << error.describe();
  EXPECT_EQ(error.code(), ErrorCode::invalid_argument);
}

// ---- Histograms built by hand from the documented layout ---------------------------------

// Latencies 100, 200 and 5000 ns. With the log-linear layout (exact below 128; then 64
// sub-buckets per power of two) they fall in buckets 100, 128 + 36 = 164 and
// 128 + 5 * 64 + 14 = 462, and all in legacy bin 0 (below 50 us).
struct HandHistogram {
  std::vector<std::uint64_t> index{100, 164, 462};
  std::vector<std::uint64_t> count{1, 1, 1};
  std::vector<std::uint64_t> legacy = std::vector<std::uint64_t>(21, 0);
  std::uint64_t sum = 5300, min = 100, max = 5000;
  HandHistogram() { legacy[0] = 3; }
};

// An envelope carrying a Sample with one target whose reads are those of `h`.
WireWriter sample_with(const HandHistogram& h) {
  const auto histogram =
      WireWriter().packed(1, h.index).packed(2, h.count).packed(3, h.legacy).varint(4, h.sum).varint(5, h.min).varint(6, h.max);
  const auto reads = WireWriter().varint(1, 3).varint(2, 5300).varint(3, 5000);
  const auto counters = WireWriter().message(3, reads).message(9, histogram);
  const auto target = WireWriter().varint(1, 0).message(2, counters);
  const auto worker = WireWriter().varint(1, 0).message(3, target);
  const auto sample = WireWriter().varint(2, 1).varint(5, 2).message(6, worker);
  return WireWriter().message(field::sample, sample);
}

TEST(Hostile, HandMadeHistogramDecodesToTheRecordedOne) {
  const auto decoded = decode(sample_with(HandHistogram{}).data());
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  const auto& sample = std::get<Sample>(decoded->message);
  EXPECT_EQ(sample.phase, SamplePhase::recording);
  IoCounters expected;
  for (const std::uint64_t latency : {100, 200, 5000}) expected.record_read(0, latency);
  EXPECT_EQ(sample.workers.at(0).targets.at(0).counters, expected);
}

TEST(Hostile, InconsistentHistogramsAreRejected) {
  const std::string histogram_path = "sample.workers[0].targets[0].counters.latency";
  const std::vector<std::pair<std::string, std::function<void(HandHistogram&)>>> cases{
      {".bucket_index[2]", [](HandHistogram& h) { h.index = {100, 462, 164}; }},
      {".bucket_index[1]", [](HandHistogram& h) { h.index = {100, 100, 462}; }},
      {".bucket_index[2]", [](HandHistogram& h) { h.index = {100, 164, 2049}; }},
      {".bucket_count", [](HandHistogram& h) { h.count = {1, 1}; }},
      {".bucket_count[1]", [](HandHistogram& h) { h.count = {1, 0, 1}; }},
      {".legacy_bins", [](HandHistogram& h) { h.legacy.pop_back(); }},
      {"", [](HandHistogram& h) { h.legacy[0] = 2; }},  // bins disagree with buckets
      {"", [](HandHistogram& h) { h.min = 6000; }},     // min above max
      {"", [](HandHistogram& h) { h.min = 90; }},       // min in an empty bucket
      {"", [](HandHistogram& h) { h.max = 1'000'000; }},
      {"", [](HandHistogram& h) {  // an empty histogram with a sum
         h.index.clear();
         h.count.clear();
         h.legacy[0] = 0;
       }},
  };
  for (const auto& [suffix, breaks] : cases) {
    SCOPED_TRACE(suffix);
    HandHistogram h;
    breaks(h);
    const auto error = rejection(sample_with(h));
    EXPECT_EQ(error.field(), histogram_path + suffix) << error.describe();
    EXPECT_NE(error.code(), ErrorCode::parse_error) << error.describe();
  }
}

TEST(Hostile, TargetCountersAreCappedPerMessage) {
  // Each decoded target costs a whole histogram: 2 workers x 2048 + 1 empty targets on the
  // wire would be ~70 MB decoded.
  auto worker = [](std::uint64_t index, int targets) {
    WireWriter w;
    w.varint(1, index);
    for (int i = 0; i < targets; ++i) w.message(3, WireWriter().varint(1, static_cast<std::uint64_t>(i)));
    return w;
  };
  const auto sample = WireWriter()
                          .varint(2, 1)
                          .varint(5, 1)
                          .message(6, worker(0, 2048))
                          .message(6, worker(1, 2048))
                          .message(6, worker(2, 1));
  const auto error = rejection(WireWriter().message(field::sample, sample));
  EXPECT_EQ(error.field(), "sample.workers") << error.describe();
  EXPECT_EQ(error.code(), ErrorCode::invalid_argument);

  const auto too_many_targets = WireWriter().varint(2, 1).varint(5, 1).message(6, worker(0, 2049));
  EXPECT_EQ(rejection(WireWriter().message(field::sample, too_many_targets)).field(), "sample.workers[0].targets");
}

TEST(Hostile, CorruptedFramesGiveAMessageOrANamedError) {
  // Seeded corruption of every message type: flipped, replaced, dropped bytes. Whatever
  // comes out must be an envelope (that then round-trips) or a FrameError, never a crash
  // (run under the asan preset to catch memory errors too).
  std::mt19937 random(777);
  const auto messages = test::every_message();
  int accepted = 0;
  int rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    auto frame = encode_frame(messages[static_cast<std::size_t>(round) % messages.size()]).value();
    std::uniform_int_distribution<std::size_t> position(0, frame.size() - 1);
    const int edits = 1 + round % 3;
    for (int e = 0; e < edits; ++e) {
      const auto at = position(random);
      switch (random() % 3) {
        case 0: frame[at] ^= static_cast<std::byte>(1U << (random() % 8)); break;
        case 1: frame[at] = static_cast<std::byte>(random() % 256); break;
        default: frame.erase(frame.begin() + static_cast<std::ptrdiff_t>(at)); break;
      }
      if (frame.empty()) break;
      position = std::uniform_int_distribution<std::size_t>(0, frame.size() - 1);
    }
    FrameDecoder decoder;
    decoder.feed(frame);
    for (int steps = 0; steps < 4; ++steps) {
      auto step = decoder.next();
      if (std::holds_alternative<NeedMore>(step)) break;
      if (const auto* error = std::get_if<FrameError>(&step)) {
        EXPECT_FALSE(error->error.message().empty());
        ++rejected;
        break;
      }
      const auto& envelope = std::get<Envelope>(step);
      const auto again = decode(encode(envelope));
      ASSERT_TRUE(again.has_value()) << again.error().describe();
      EXPECT_EQ(*again, envelope);
      ++accepted;
    }
  }
  // Both outcomes happen, so the loop exercised the checks and the happy path alike.
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace iomark::protocol
