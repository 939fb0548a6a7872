// dial(), dial_with_backoff(), and listening addresses (IPv6, ports).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "iomark/transport/tcp.hpp"
#include "test_support.hpp"

namespace iomark::transport::test {
namespace {

using namespace std::chrono_literals;

// A loopback port nobody listens on (it was free a moment ago).
std::uint16_t closed_port() {
  auto listener = listen_on_loopback(controller_config(std::nullopt));
  return listener ? listener->port() : std::uint16_t{1};
}

TEST(Dial, ARefusedConnectionIsANamedIoError) {
  const HostPort nowhere{"127.0.0.1", closed_port()};
  const auto dialed = dial(nowhere, agent_config(key_of('k')));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(dialed.error().message().starts_with(to_string(nowhere) + ": cannot connect")) << dialed.error().message();
}

TEST(Dial, BackoffDoublesUpToTheMaximum) {
  const BackoffPolicy policy{.initial = 500ms, .maximum = 3s};
  EXPECT_EQ(backoff_delay(policy, 1), Nanoseconds(500ms));
  EXPECT_EQ(backoff_delay(policy, 2), Nanoseconds(1s));
  EXPECT_EQ(backoff_delay(policy, 3), Nanoseconds(2s));
  EXPECT_EQ(backoff_delay(policy, 4), Nanoseconds(3s));
  EXPECT_EQ(backoff_delay(policy, 1000), Nanoseconds(3s));  // no overflow on long outages
  const BackoffPolicy huge{.initial = 1s, .maximum = Nanoseconds::max()};
  EXPECT_EQ(backoff_delay(huge, 4000), Nanoseconds::max());
}

TEST(Dial, BackoffRetriesUnreachablePeersUntilStopped) {
  const HostPort nowhere{"127.0.0.1", closed_port()};
  std::stop_source stop;
  std::vector<Nanoseconds> delays;
  const auto dialed = dial_with_backoff(nowhere, agent_config(key_of('k')), BackoffPolicy{.initial = 10ms, .maximum = 40ms},
                                        stop.get_token(), [&](const Error& error, Nanoseconds retry_in) {
                                          EXPECT_EQ(error.code(), ErrorCode::io_error);
                                          delays.push_back(retry_in);
                                          if (delays.size() == 4) stop.request_stop();
                                        });
  ASSERT_FALSE(dialed.has_value());
  EXPECT_TRUE(contains(dialed.error().message(), "stopped")) << dialed.error().message();
  EXPECT_EQ(delays, (std::vector<Nanoseconds>{10ms, 20ms, 40ms, 40ms}));
}

TEST(Dial, BackoffDoesNotRetryAWrongKey) {
  auto listener = listen_on_loopback(controller_config(key_of('a')));
  ASSERT_TRUE(listener);
  int retries = 0;
  const auto dialed = dial_with_backoff(address_of(*listener), agent_config(key_of('b')),
                                        BackoffPolicy{.initial = 10ms, .maximum = 10ms}, std::stop_token{},
                                        [&](const Error&, Nanoseconds) { ++retries; });
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(retries, 0);
}

TEST(Dial, AnAgentKeepsDialingUntilTheControllerAppears) {
  const auto port = closed_port();
  std::mutex mutex;
  std::condition_variable retried;
  int retries = 0;
  std::optional<Result<std::unique_ptr<protocol::Connection>>> outcome;
  std::jthread agent([&](std::stop_token stop) {
    auto dialed = dial_with_backoff(HostPort{"127.0.0.1", port}, agent_config(key_of('k')),
                                    BackoffPolicy{.initial = 20ms, .maximum = 100ms}, stop,
                                    [&](const Error&, Nanoseconds) {
                                      std::lock_guard lock(mutex);
                                      ++retries;
                                      retried.notify_all();
                                    });
    std::lock_guard lock(mutex);
    outcome = std::move(dialed);
  });
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(retried.wait_for(lock, kWait, [&] { return retries >= 2; }));
  }
  auto controller = Listener::open(HostPort{"127.0.0.1", port}, controller_config(key_of('k')));
  if (!controller) {
    agent.request_stop();
    GTEST_SKIP() << "the free port was taken by someone else meanwhile: " << controller.error().message();
  }
  auto accepted = accept_connection(**controller);
  ASSERT_TRUE(accepted.connection);
  EXPECT_EQ(accepted.connection->peer().name, "db1");
  agent.join();
  ASSERT_TRUE(outcome.has_value());
  ASSERT_TRUE(outcome->has_value()) << outcome->error().message();
  EXPECT_EQ((**outcome)->peer().role, protocol::Role::controller);
}

TEST(Dial, AStopRequestEndsADialStuckInTheHandshake) {
  // The kernel completes TCP connections to a listening socket nobody accepts from: the
  // dialer connects, sends its Hello, and never hears back.
  const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(server, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(server, 4), 0);
  ASSERT_EQ(::getsockname(server, reinterpret_cast<sockaddr*>(&address), &length), 0);

  auto patient = agent_config(key_of('k'));
  patient.handshake_timeout = 1h;
  std::stop_source stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(200ms);
    stop.request_stop();
  });
  const auto dialed = dial(HostPort{"127.0.0.1", ntohs(address.sin_port)}, patient, stop.get_token());
  stopper.join();
  ::close(server);
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::cancelled);
  EXPECT_TRUE(contains(dialed.error().message(), "stopped")) << dialed.error().message();
}

TEST(Dial, AStopRequestEndsTheWaitBetweenAttempts) {
  std::stop_source stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(200ms);
    stop.request_stop();
  });
  const auto dialed = dial_with_backoff(HostPort{"127.0.0.1", closed_port()}, agent_config(key_of('k')),
                                        BackoffPolicy{.initial = 1h, .maximum = 1h}, stop.get_token());
  stopper.join();
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::cancelled);
  EXPECT_TRUE(contains(dialed.error().message(), "stopped")) << dialed.error().message();
}

TEST(Listen, ReportsItsPortAndRefusesAPortInUse) {
  auto first = listen_on_loopback(controller_config(std::nullopt));
  ASSERT_TRUE(first);
  EXPECT_NE(first->port(), 0);
  EXPECT_EQ(first->endpoint(), "127.0.0.1:" + std::to_string(first->port()));
  const auto second = Listener::open(HostPort{"127.0.0.1", first->port()}, controller_config(std::nullopt));
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(second.error().message(), "cannot listen on 127.0.0.1:")) << second.error().message();
}

TEST(Listen, NothingToAcceptIsTimedOutWithoutWaitingWhenAskedNotTo) {
  auto listener = listen_on_loopback(controller_config(std::nullopt));
  ASSERT_TRUE(listener);
  const auto nothing = listener->accept(0ns);
  ASSERT_FALSE(nothing.has_value());
  EXPECT_EQ(nothing.error().code(), ErrorCode::timed_out);
}

TEST(Listen, IPv6Loopback) {
  auto listener = Listener::open(HostPort{"::1", 0}, controller_config(key_of('k')));
  if (!listener) GTEST_SKIP() << "IPv6 loopback is not available here: " << listener.error().message();
  EXPECT_EQ((*listener)->endpoint(), "[::1]:" + std::to_string((*listener)->port()));
  auto dialed = dial(HostPort{"::1", (*listener)->port()}, agent_config(key_of('k')));
  ASSERT_TRUE(dialed.has_value()) << dialed.error().message();
  EXPECT_EQ((*dialed)->peer().endpoint, "[::1]:" + std::to_string((*listener)->port()));
  auto accepted = accept_connection(**listener);
  ASSERT_TRUE(accepted.connection);
  EXPECT_TRUE(accepted.connection->peer().endpoint.starts_with("[::1]:")) << accepted.connection->peer().endpoint;
  ASSERT_TRUE((*dialed)->send(numbered(6)).has_value());
  auto got = accepted.connection->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, numbered(6));
}

TEST(Listen, TheIPv6WildcardAlsoServesIPv4ClientsWhereTheSystemAllows) {
  auto listener = Listener::open(HostPort{"::", 0}, controller_config(key_of('k')));
  if (!listener) GTEST_SKIP() << "IPv6 is not available here: " << listener.error().message();
  auto dialed = dial(HostPort{"127.0.0.1", (*listener)->port()}, agent_config(key_of('k')));
  if (!dialed) GTEST_SKIP() << "this system keeps IPv6 sockets IPv6-only: " << dialed.error().message();
  auto accepted = accept_connection(**listener);
  ASSERT_TRUE(accepted.connection);
  // Shown as the IPv4 address it is, not as ::ffff:127.0.0.1.
  EXPECT_TRUE(accepted.connection->peer().endpoint.starts_with("127.0.0.1:")) << accepted.connection->peer().endpoint;
}

}  // namespace
}  // namespace iomark::transport::test
