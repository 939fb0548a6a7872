// Sessions over TLS on loopback: both directions work with the pre-shared key still checked
// inside TLS; a certificate from a CA the peer does not trust, and TLS on one side only, are
// refused with an error naming the cause on both sides (no timeout, no garbage-frame error).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "iomark/transport/tcp.hpp"
#include "raw_peer.hpp"
#include "test_support.hpp"
#include "tls_test.hpp"

namespace iomark::transport::test {
namespace {

using namespace std::chrono_literals;

SessionConfig with_tls(SessionConfig config, std::shared_ptr<const TlsCredentials> tls) {
  config.tls = std::move(tls);
  return config;
}

void expect_round_trips(protocol::Connection& a, protocol::Connection& b, std::uint64_t count) {
  // Both directions at once: TLS reads and writes of one connection interleave.
  std::atomic<std::uint64_t> at_b{0};
  std::thread sender([&] {
    for (std::uint64_t i = 1; i <= count; ++i) ASSERT_TRUE(a.send(numbered(i)).has_value());
  });
  std::thread receiver([&] {
    for (std::uint64_t i = 1; i <= count; ++i) {
      auto got = b.receive(kWait);
      if (!got || *got != numbered(i)) return;
      at_b = i;
    }
  });
  for (std::uint64_t i = 1; i <= count; ++i) ASSERT_TRUE(b.send(numbered(1'000'000 + i)).has_value());
  for (std::uint64_t i = 1; i <= count; ++i) {
    auto got = a.receive(kWait);
    ASSERT_TRUE(got.has_value()) << got.error().message();
    ASSERT_EQ(*got, numbered(1'000'000 + i));
  }
  sender.join();
  receiver.join();
  EXPECT_EQ(at_b.load(), count);
}

TEST_F(TlsTest, AnAgentDialsAListeningControllerOverTlsWithTheKeyCheckedInside) {
  auto controller = load(lab_->issue("controller"));
  auto agent = load(lab_->issue("db1"));
  ASSERT_TRUE(controller && agent);
  auto pair = connect_pair(with_tls(controller_config(key_of('k')), controller),
                           with_tls(agent_config(key_of('k')), agent));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  EXPECT_EQ(pair.accepted->peer().name, "db1");
  EXPECT_EQ(pair.accepted->peer().auth_mode, protocol::AuthMode::pre_shared_key);
  EXPECT_EQ(pair.dialed->peer().name, "ctl");
  expect_round_trips(*pair.dialed, *pair.accepted, 2000);
}

TEST_F(TlsTest, TheControllerDialsAListeningAgentOverTls) {
  auto controller = load(lab_->issue("controller"));
  auto agent = load(lab_->issue("db1"));
  ASSERT_TRUE(controller && agent);
  auto pair = connect_pair(with_tls(agent_config(key_of('z')), agent),
                           with_tls(controller_config(key_of('z')), controller));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  EXPECT_EQ(pair.dialed->peer().role, protocol::Role::agent);
  EXPECT_EQ(pair.accepted->peer().role, protocol::Role::controller);
  expect_round_trips(*pair.accepted, *pair.dialed, 2000);
}

TEST_F(TlsTest, AClosedTlsSessionReadsAsThePeerClosingNotAsATlsError) {
  auto pair = connect_pair(with_tls(controller_config(key_of('k')), load(lab_->issue("controller"))),
                           with_tls(agent_config(key_of('k')), load(lab_->issue("db1"))));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  ASSERT_TRUE(pair.dialed->send(numbered(1)).has_value());
  pair.dialed->close("the agent is shutting down");
  auto got = pair.accepted->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, numbered(1));
  auto closed = pair.accepted->receive(kWait);
  ASSERT_FALSE(closed.has_value());
  EXPECT_EQ(closed.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(closed.error().message(), "the peer closed the connection")) << closed.error().message();
}

TEST_F(TlsTest, TheKeyIsStillCheckedInsideTls) {
  auto listener = listen_on_loopback(with_tls(controller_config(key_of('a')), load(lab_->issue("controller"))));
  ASSERT_TRUE(listener);
  auto dialed = dial(address_of(*listener), with_tls(agent_config(key_of('b')), load(lab_->issue("db1"))));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::validation_error);
  EXPECT_TRUE(contains(dialed.error().message(), "another key")) << dialed.error().message();
  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_TRUE(contains(failure->message(), "authentication failed")) << failure->message();
}

// The agent's certificate comes from a CA the controller does not trust; the agent trusts
// the controller's. With TLS 1.3 the dialing agent learns it from the controller's alert.
TEST_F(TlsTest, ACertificateFromAnUntrustedCaIsRefusedAndBothSidesSayWhy) {
  auto listener = listen_on_loopback(with_tls(controller_config(key_of('k')), load(lab_->issue("controller"))));
  ASSERT_TRUE(listener);
  auto rogue_files = rogue_->issue("intruder");
  rogue_files.ca = lab_->certificate();
  auto dialed = dial(address_of(*listener), with_tls(agent_config(key_of('k')), load(rogue_files)));
  ASSERT_FALSE(dialed.has_value());
  const auto& at_agent = dialed.error().message();
  EXPECT_EQ(dialed.error().code(), ErrorCode::validation_error) << at_agent;
  EXPECT_TRUE(contains(at_agent, "127.0.0.1:" + std::to_string(listener->port()))) << at_agent;
  EXPECT_TRUE(contains(at_agent, "the peer refused our certificate")) << at_agent;
  EXPECT_TRUE(contains(at_agent, "unknown ca")) << at_agent;
  EXPECT_TRUE(contains(at_agent, rogue_files.certificate.string())) << at_agent;

  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->code(), ErrorCode::validation_error) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "127.0.0.1:")) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "refused the peer's certificate 'CN=intruder'")) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "unable to get local issuer certificate")) << failure->message();
  EXPECT_TRUE(contains(failure->message(), lab_->certificate().string())) << failure->message();
  EXPECT_EQ(listener->accept(200ms).error().code(), ErrorCode::timed_out);
}

// The listening agent's certificate comes from a CA the dialing controller does not trust.
TEST_F(TlsTest, AListenerWithAnUntrustedCertificateIsRefusedByTheDialer) {
  auto agent_files = rogue_->issue("db1");
  agent_files.ca = lab_->certificate();
  auto listener = listen_on_loopback(with_tls(agent_config(key_of('k')), load(agent_files)));
  ASSERT_TRUE(listener);
  auto dialed = dial(address_of(*listener), with_tls(controller_config(key_of('k')), load(lab_->issue("controller"))));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::validation_error);
  EXPECT_TRUE(contains(dialed.error().message(), "refused the peer's certificate 'CN=db1'")) << dialed.error().message();
  EXPECT_TRUE(contains(dialed.error().message(), "unable to get local issuer certificate"))
      << dialed.error().message();

  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->code(), ErrorCode::validation_error) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "the peer refused our certificate")) << failure->message();
}

TEST_F(TlsTest, ATlsDialerAndAPlainListenerRefuseEachOtherNamingTls) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  auto dialed = dial(address_of(*listener), with_tls(agent_config(key_of('k')), load(lab_->issue("db1"))));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::validation_error) << dialed.error().message();
  EXPECT_TRUE(contains(dialed.error().message(), "the peer does not speak TLS")) << dialed.error().message();

  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->code(), ErrorCode::validation_error) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "the peer speaks TLS and this controller does not")) << failure->message();
  EXPECT_FALSE(contains(failure->message(), "bad magic")) << failure->message();
}

TEST_F(TlsTest, APlainDialerAndATlsListenerRefuseEachOtherNamingTls) {
  auto listener = listen_on_loopback(with_tls(agent_config(key_of('k')), load(lab_->issue("db1"))));
  ASSERT_TRUE(listener);
  auto dialed = dial(address_of(*listener), controller_config(key_of('k')));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::validation_error) << dialed.error().message();
  EXPECT_TRUE(contains(dialed.error().message(), "this agent speaks TLS only and you do not speak TLS"))
      << dialed.error().message();

  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->code(), ErrorCode::validation_error) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "the peer does not speak TLS")) << failure->message();
}

TEST_F(TlsTest, AMismatchIsNotRetriedByTheBackoffLoop) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  std::size_t retries = 0;
  auto dialed = dial_with_backoff(address_of(*listener), with_tls(agent_config(key_of('k')), load(lab_->issue("db1"))),
                                  BackoffPolicy{1ms, 1ms}, {}, [&retries](const Error&, Nanoseconds) { ++retries; });
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(retries, 0U) << dialed.error().message();
}

TEST_F(TlsTest, ASilentOrGarbledPeerAtATlsListenerIsDroppedAndGoodPeersStillGetIn) {
  auto controller = load(lab_->issue("controller"));
  auto config = with_tls(controller_config(key_of('k')), controller);
  config.handshake_timeout = 300ms;
  auto listener = listen_on_loopback(config);
  ASSERT_TRUE(listener);

  expect_silent_peer_dropped(*listener, "during the TLS handshake");

  auto garbled = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(garbled && garbled->send_text("GET / HTTP/1.0\r\n\r\n"));
  const auto refused = accept_failure(*listener);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::validation_error);
  EXPECT_TRUE(contains(refused->message(), "TLS handshake failed")) << refused->message();
  EXPECT_TRUE(garbled->wait_for_close());

  auto good = dial(address_of(*listener), with_tls(agent_config(key_of('k')), load(lab_->issue("db1"))));
  ASSERT_TRUE(good.has_value()) << good.error().describe();
  auto accepted = accept_connection(*listener);
  ASSERT_TRUE(accepted.connection);
  EXPECT_TRUE(accepted.failures.empty());
}

}  // namespace
}  // namespace iomark::transport::test
