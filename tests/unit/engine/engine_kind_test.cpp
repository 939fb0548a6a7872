#include "iomark/engine/engine_kind.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace iomark::engine {
namespace {

TEST(ParseEngineKind, AcceptsEveryDocumentedName) {
  EXPECT_EQ(parse_engine_kind("io_uring"), EngineKind::io_uring);
  EXPECT_EQ(parse_engine_kind("libaio"), EngineKind::linux_aio);
  EXPECT_EQ(parse_engine_kind("linux-aio"), EngineKind::linux_aio);
  EXPECT_EQ(parse_engine_kind("threadpool"), EngineKind::threadpool);
  EXPECT_EQ(parse_engine_kind("sync"), EngineKind::sync);
  EXPECT_EQ(parse_engine_kind("null"), EngineKind::null);
}

TEST(ParseEngineKind, IgnoresAsciiCase) {
  EXPECT_EQ(parse_engine_kind("IO_URING"), EngineKind::io_uring);
  EXPECT_EQ(parse_engine_kind("LibAIO"), EngineKind::linux_aio);
  EXPECT_EQ(parse_engine_kind("Null"), EngineKind::null);
}

TEST(ParseEngineKind, RejectsAnythingElseNamingTheChoices) {
  for (const char* text : {"", "uring", "io-uring", "aio", "sync ", " null", "posixaio", "nul"}) {
    const auto parsed = parse_engine_kind(text);
    ASSERT_FALSE(parsed) << "'" << text << "'";
    EXPECT_EQ(parsed.error().code(), ErrorCode::invalid_argument);
    EXPECT_EQ(parsed.error().field(), "engine");
    EXPECT_NE(parsed.error().message().find("libaio"), std::string::npos);
    EXPECT_NE(parsed.error().message().find(std::string("'") + text + "'"), std::string::npos);
  }
}

TEST(EngineKindNames, AreTheCanonicalSpellings) {
  EXPECT_EQ(to_string(EngineKind::io_uring), "io_uring");
  EXPECT_EQ(to_string(EngineKind::linux_aio), "linux-aio");
  EXPECT_EQ(to_string(EngineKind::threadpool), "threadpool");
  EXPECT_EQ(to_string(EngineKind::sync), "sync");
  EXPECT_EQ(to_string(EngineKind::null), "null");
}

TEST(EngineKindNames, RoundTripThroughTheParser) {
  for (const EngineKind kind : kAllEngineKinds) {
    EXPECT_EQ(parse_engine_kind(to_string(kind)), kind) << to_string(kind);
  }
}

TEST(ProbeOrder, IsUringThenAioThenThreadpoolThenSyncAndNeverNull) {
  EXPECT_EQ(kProbeOrder[0], EngineKind::io_uring);
  EXPECT_EQ(kProbeOrder[1], EngineKind::linux_aio);
  EXPECT_EQ(kProbeOrder[2], EngineKind::threadpool);
  EXPECT_EQ(kProbeOrder[3], EngineKind::sync);
  EXPECT_EQ(std::count(kProbeOrder.begin(), kProbeOrder.end(), EngineKind::null), 0);
}

}  // namespace
}  // namespace iomark::engine
