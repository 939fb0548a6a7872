#include "iomark/protocol/codec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "sample_messages.hpp"

namespace iomark::protocol {
namespace {

TEST(Codec, SamplesCoverEveryMessageType) {
  std::set<std::string_view> names;
  for (const auto& envelope : test::every_message()) names.insert(message_name(envelope.message));
  EXPECT_EQ(names.size(), std::variant_size_v<Message>);
}

TEST(Codec, SamplesDifferFromDefaults) {
  // Otherwise a converter that drops a field could still round-trip them.
  for (const auto& envelope : test::every_message()) {
    SCOPED_TRACE(std::string(message_name(envelope.message)));
    std::visit(
        [](const auto& message) {
          using T = std::decay_t<decltype(message)>;
          if constexpr (!std::is_same_v<T, Ack> && !std::is_same_v<T, InventoryRequest>) {
            EXPECT_NE(message, T{});
          }
        },
        envelope.message);
  }
}

TEST(Codec, EveryMessageRoundTrips) {
  for (const auto& envelope : test::every_message()) {
    SCOPED_TRACE(std::string(message_name(envelope.message)));
    const auto bytes = encode(envelope);
    const auto decoded = decode(bytes);
    ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
    EXPECT_EQ(decoded->request_id, envelope.request_id);
    EXPECT_EQ(decoded->correlation_id, envelope.correlation_id);
    EXPECT_EQ(decoded->message.index(), envelope.message.index());
    EXPECT_TRUE(*decoded == envelope);
  }
}

TEST(Codec, ErrorReportKeepsCodeFieldAndLocation) {
  const Envelope envelope{0, 9,
                          ErrorReport{ErrorKind::request_failed,
                                      Error(ErrorCode::io_error, "disk gone").in_field("target").at({"a.icf", 3})}};
  const auto decoded = decode(encode(envelope));
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  const auto& report = std::get<ErrorReport>(decoded->message);
  EXPECT_EQ(report.kind, ErrorKind::request_failed);
  EXPECT_EQ(report.error.code(), ErrorCode::io_error);
  EXPECT_EQ(report.error.describe(), "a.icf:3: target: disk gone");
}

// Timing out and being cancelled are this side's own waiting: a peer hears io_error, so it
// never mistakes a failed request for "nothing arrived yet" and goes on waiting.
TEST(Codec, ALocalTimeoutOrCancellationTravelsAsIoError) {
  for (const auto code : {ErrorCode::timed_out, ErrorCode::cancelled}) {
    SCOPED_TRACE(std::string(to_string(code)));
    const Envelope envelope{0, 4, ErrorReport{ErrorKind::request_failed, Error(code, "no reply in time")}};
    const auto decoded = decode(encode(envelope));
    ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
    const auto& report = std::get<ErrorReport>(decoded->message);
    EXPECT_EQ(report.error.code(), ErrorCode::io_error);
    EXPECT_EQ(report.error.message(), "no reply in time");
  }
}

TEST(Codec, HistogramRoundTripKeepsPercentilesAndBins) {
  std::mt19937_64 random(20240601);
  std::lognormal_distribution<double> spread(11.0, 1.5);  // median ~60 us, long tail
  IoCounters counters;
  std::vector<std::uint64_t> latencies;
  for (int i = 0; i < 20000; ++i) {
    const auto latency = static_cast<std::uint64_t>(spread(random)) + 100;
    latencies.push_back(latency);
    counters.record_read(4096, latency);
  }
  latencies.push_back(12'000'000'000);  // one I/O of 12 s: the legacy ">= 10 s" bin
  counters.record_write(512, latencies.back());

  const FinalResults results{7, {{0, Nanoseconds(1'000'000'000), {{0, counters}}, {}, {}}}, {}, {}};
  const auto decoded = decode(encode(Envelope{0, 0, results}));
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  const auto& histogram = std::get<FinalResults>(decoded->message).workers.at(0).targets.at(0).counters.latency;

  EXPECT_EQ(histogram, counters.latency);
  std::sort(latencies.begin(), latencies.end());
  for (const double p : {1.0, 50.0, 90.0, 99.0, 99.9}) {
    SCOPED_TRACE(p);
    EXPECT_EQ(histogram.percentile(p), counters.latency.percentile(p));
    // Independently: within 1% of the exact percentile of the recorded values.
    const auto rank = static_cast<std::size_t>(std::ceil(static_cast<double>(latencies.size()) * p / 100.0));
    const auto exact = static_cast<double>(latencies[rank - 1]);
    EXPECT_NEAR(static_cast<double>(histogram.percentile(p).count()), exact, exact * 0.01);
  }
  EXPECT_EQ(histogram.max().count(), 12'000'000'000);
  EXPECT_EQ(histogram.min().count(), static_cast<std::int64_t>(latencies.front()));
  EXPECT_EQ(histogram.count(), latencies.size());
  const auto under_50us = std::count_if(latencies.begin(), latencies.end(), [](auto l) { return l < 50'000; });
  EXPECT_EQ(histogram.legacy_bins()[0], static_cast<std::uint64_t>(under_50us));
  EXPECT_EQ(histogram.legacy_bins()[20], 1U);
}

TEST(Codec, EmptyHistogramRoundTrips) {
  const FinalResults results{1, {{0, Nanoseconds(5), {{0, IoCounters{}}}, {}, {}}}, {}, {}};
  const auto decoded = decode(encode(Envelope{0, 0, results}));
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  const auto& counters = std::get<FinalResults>(decoded->message).workers.at(0).targets.at(0).counters;
  EXPECT_EQ(counters, IoCounters{});
  EXPECT_EQ(counters.latency.percentile(99).count(), 0);
}

TEST(Codec, HistogramsTravelSparse) {
  // A million I/Os of two latencies: two buckets on the wire, not 2049.
  IoCounters counters;
  for (int i = 0; i < 1'000'000; ++i) counters.record_read(4096, i % 2 == 0 ? 20'000 : 25'000);
  const FinalResults results{1, {{0, Nanoseconds(1), {{0, counters}}, {}, {}}}, {}, {}};
  EXPECT_LT(encode(Envelope{0, 0, results}).size(), 300U);
}

TEST(Codec, MessageNamesAreSnakeCase) {
  EXPECT_EQ(message_name(Hello{}), "hello");
  EXPECT_EQ(message_name(ErrorReport{}), "error");
  EXPECT_EQ(message_name(FinalResults{}), "final_results");
  EXPECT_EQ(message_name(InventoryRequest{}), "inventory_request");
  EXPECT_EQ(to_string(Phase::begin_io), "begin I/O");
  EXPECT_EQ(to_string(static_cast<Phase>(99)), "");
}

}  // namespace
}  // namespace iomark::protocol
