// The /metrics endpoint over real loopback TCP (port 0).
#include "iomark/metrics/metrics_exporter.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace iomark::metrics {
namespace {

std::uint16_t port_of(const std::string& address) {
  return static_cast<std::uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
}

// Sends `request` and reads until the server closes.
std::string exchange(std::uint16_t port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
  std::string response;
  char buffer[4096];
  for (ssize_t got; (got = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, static_cast<std::size_t>(got));
  ::close(fd);
  return response;
}

TEST(MetricsExporter, ServesTheLatestFiguresAtSlashMetrics) {
  auto exporter = MetricsExporter::start("127.0.0.1:0");
  ASSERT_TRUE(exporter) << exporter.error().describe();
  const auto port = port_of((*exporter)->address());
  ASSERT_NE(port, 0);

  auto idle = exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(idle.rfind("HTTP/1.1 200 OK\r\n", 0), 0U) << idle;
  EXPECT_NE(idle.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(idle.find("iomark_series_phase{phase=\"idle\"} 1"), std::string::npos);

  controller::RunPlan plan;
  (*exporter)->run_started(0, 3, plan);
  const auto run = results::test_support::example_run();
  (*exporter)->run_finished(0, run, results::summarize_run(run));
  auto finished = exchange(port, "GET /metrics HTTP/1.0\r\n\r\n");
  EXPECT_NE(finished.find("iomark_series_run_index 1\n"), std::string::npos) << finished;
  EXPECT_NE(finished.find("iomark_series_runs_planned 3\n"), std::string::npos);
  EXPECT_NE(finished.find("iomark_series_runs_completed_total 1\n"), std::string::npos);
  EXPECT_NE(finished.find("iomark_iops{scope=\"manager\",manager=\"hostA\""), std::string::npos);
  // The body is exactly what text() renders, and Content-Length says how long it is.
  const auto body = finished.substr(finished.find("\r\n\r\n") + 4);
  EXPECT_EQ(body, (*exporter)->text());
  EXPECT_NE(finished.find("Content-Length: " + std::to_string(body.size()) + "\r\n"), std::string::npos);
}

TEST(MetricsExporter, OtherPathsAndMethodsAreRefused) {
  auto exporter = MetricsExporter::start("127.0.0.1:0");
  ASSERT_TRUE(exporter);
  const auto port = port_of((*exporter)->address());
  EXPECT_EQ(exchange(port, "GET / HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0U);
  EXPECT_EQ(exchange(port, "POST /metrics HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 405", 0), 0U);
}

TEST(MetricsExporter, OversizedRequestIsDroppedWithoutAnAnswer) {
  auto exporter = MetricsExporter::start("127.0.0.1:0");
  ASSERT_TRUE(exporter);
  const auto port = port_of((*exporter)->address());
  // 16 KiB of header without the blank line that ends it: more than the server reads.
  const std::string request = "GET /metrics HTTP/1.1\r\nX: " + std::string(16384, 'a');
  EXPECT_EQ(exchange(port, request), "");
  // The server still answers the next client.
  EXPECT_EQ(exchange(port, "GET /metrics HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 200", 0), 0U);
}

TEST(MetricsExporter, BadAddressesAreRefusedBeforeListening) {
  EXPECT_EQ(MetricsExporter::start("not an address:1").error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(MetricsExporter::start("127.0.0.1:99999").error().code(), ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace iomark::metrics
