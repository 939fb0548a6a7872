#include "iomark/transport/host_port.hpp"

#include <gtest/gtest.h>

namespace iomark::transport {
namespace {

TEST(HostPort, DialTargetsAsTheCommandLinesWriteThem) {
  EXPECT_EQ(parse_host_port("db1", 1066).value(), (HostPort{"db1", 1066}));
  EXPECT_EQ(parse_host_port("db1:5000", 1066).value(), (HostPort{"db1", 5000}));
  EXPECT_EQ(parse_host_port("10.0.0.5:1", 1066).value(), (HostPort{"10.0.0.5", 1}));
  EXPECT_EQ(parse_host_port("[::1]:65535", 1066).value(), (HostPort{"::1", 65535}));
  EXPECT_EQ(parse_host_port("[fe80::1]", 1066).value(), (HostPort{"fe80::1", 1066}));
  EXPECT_EQ(parse_host_port("::1", 1066).value(), (HostPort{"::1", 1066}));
}

TEST(HostPort, BadDialTargetsAreNamed) {
  for (const auto* text : {"", ":1066", "db1:", "db1:0", "db1:65536", "db1:12x", "[::1", "[::1]x", "[]:5"}) {
    const auto parsed = parse_host_port(text, 1066);
    ASSERT_FALSE(parsed.has_value()) << text;
    EXPECT_EQ(parsed.error().code(), ErrorCode::invalid_argument) << text;
    EXPECT_NE(parsed.error().message().find(std::string("'") + text + "'"), std::string::npos)
        << parsed.error().message();
  }
}

TEST(HostPort, ListenAddresses) {
  EXPECT_EQ(parse_listen_address("1066", "0.0.0.0").value(), (HostPort{"0.0.0.0", 1066}));
  EXPECT_EQ(parse_listen_address("0", "::").value(), (HostPort{"::", 0}));
  EXPECT_EQ(parse_listen_address("127.0.0.1:7000", "::").value(), (HostPort{"127.0.0.1", 7000}));
  EXPECT_EQ(parse_listen_address("[::]:1066", "0.0.0.0").value(), (HostPort{"::", 1066}));
  for (const auto* text : {"", "99999", "db1", ":1066", "[::1]", "db1:port"}) {
    EXPECT_FALSE(parse_listen_address(text, "0.0.0.0").has_value()) << text;
  }
}

TEST(HostPort, PrintsWhatItParses) {
  for (const auto* text : {"db1:1066", "10.0.0.5:80", "[::1]:1066", "[fe80::1%eth0]:5"}) {
    EXPECT_EQ(to_string(parse_host_port(text, 1).value()), text);
  }
}

}  // namespace
}  // namespace iomark::transport
