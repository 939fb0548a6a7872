#include "iomark/controller/manager_registry.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "iomark/agent/agent_service.hpp"
#include "iomark/common/host_name.hpp"
#include "iomark/controller/embedded_agent.hpp"
#include "iomark/transport/session_config.hpp"
#include "iomark/transport/tcp.hpp"

namespace iomark::controller {
namespace {

using namespace std::chrono_literals;

class RecordingEvents final : public ManagerEvents {
 public:
  void manager_joined(const ManagerLink& link) override {
    std::lock_guard lock(mutex_);
    joined.push_back(link.name());
  }
  void manager_refused(const Error& error) override {
    std::lock_guard lock(mutex_);
    refused.push_back(error.describe());
  }
  std::vector<std::string> joined_names() {
    std::lock_guard lock(mutex_);
    return joined;
  }
  std::vector<std::string> refusals() {
    std::lock_guard lock(mutex_);
    return refused;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> joined;
  std::vector<std::string> refused;
};

protocol::AuthKey key_of(std::string_view text) { return *protocol::AuthKey::from_text(text); }

// A real agent dialling the registry's listener from its own thread, as `iomark-agent -i`.
class LoggingInAgent {
 public:
  LoggingInAgent(std::uint16_t port, std::string name, std::optional<protocol::AuthKey> key)
      : thread_([=, this](std::stop_token stop) {
          auto config = transport::make_session_config(protocol::Role::agent, "test agent", name, "", key);
          auto connection = transport::dial({"127.0.0.1", port}, config, stop);
          if (!connection) {
            dial_failed_ = true;
            return;
          }
          auto policy = targets::SafetyPolicy::create({}, targets::Destructive::refuse);
          agent::AgentService service({std::move(*policy), std::chrono::seconds(1), name});
          (void)service.serve(**connection, stop);
        }) {}

  [[nodiscard]] bool dial_failed() const { return dial_failed_; }

 private:
  std::atomic<bool> dial_failed_{false};
  std::jthread thread_;
};

RegistryOptions options_with(std::optional<protocol::AuthKey> key) {
  return {std::move(key), "test-controller", "iomark test"};
}

TEST(ManagerRegistry, EmbeddedAgentJoinsUnderTheHostName) {
  RecordingEvents events;
  ManagerRegistry registry(options_with(std::nullopt), events);
  ASSERT_TRUE(add_embedded_agent(registry, {}));
  ASSERT_EQ(registry.size(), 1U);
  EXPECT_EQ(registry.links().at(0)->name(), local_host_name());
  EXPECT_EQ(registry.links().at(0)->peer().endpoint, "in-process");
  EXPECT_EQ(events.joined_names(), std::vector<std::string>{local_host_name()});
  EXPECT_GE(registry.links().at(0)->inventory().cpu_count, 1U);
}

TEST(ManagerRegistry, RefreshedInventoryComesFromTheAgent) {
  RecordingEvents events;
  ManagerRegistry registry(options_with(std::nullopt), events);
  ASSERT_TRUE(add_embedded_agent(registry, {"/tmp"}));
  auto* link = registry.links().at(0);
  ASSERT_TRUE(link->refresh_inventory(10s));
  EXPECT_EQ(link->inventory().host_name, local_host_name());
  EXPECT_EQ(link->inventory().allowed_paths, std::vector<std::string>{"/tmp"});
}

TEST(ManagerRegistry, AgentsLoggingInAreRegisteredInArrivalOrder) {
  RecordingEvents events;
  const auto key = key_of("registry-test-key-0123456789abcdef");
  ManagerRegistry registry(options_with(key), events);
  auto endpoint = registry.listen({"127.0.0.1", 0});
  ASSERT_TRUE(endpoint) << endpoint.error().describe();
  EXPECT_TRUE(registry.is_listening());
  const auto port = static_cast<std::uint16_t>(std::stoul(endpoint->substr(endpoint->rfind(':') + 1)));
  LoggingInAgent first(port, "first", key);
  ASSERT_TRUE(registry.wait_for(1, 20s)) << "first agent";
  LoggingInAgent second(port, "second", key);
  ASSERT_TRUE(registry.wait_for(2, 20s)) << "second agent";
  EXPECT_EQ(events.joined_names(), (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(registry.links().at(1)->name(), "second");
  EXPECT_TRUE(registry.remove(0));
  EXPECT_FALSE(registry.remove(5));
  ASSERT_EQ(registry.size(), 1U);
  EXPECT_EQ(registry.links().at(0)->name(), "second");
}

TEST(ManagerRegistry, AWrongKeyIsRefusedAndTheWaitEndsWithACount) {
  RecordingEvents events;
  ManagerRegistry registry(options_with(key_of("the-controllers-key-0123456789ab")), events);
  auto endpoint = registry.listen({"127.0.0.1", 0});
  ASSERT_TRUE(endpoint);
  const auto port = static_cast<std::uint16_t>(std::stoul(endpoint->substr(endpoint->rfind(':') + 1)));
  LoggingInAgent intruder(port, "intruder", key_of("some-other-key-0123456789abcdefg"));
  const auto waited = registry.wait_for(1, 3s);
  ASSERT_FALSE(waited);
  EXPECT_EQ(waited.error().code(), ErrorCode::timed_out);
  EXPECT_NE(waited.error().message().find("0 of 1 manager(s)"), std::string::npos) << waited.error().describe();
  EXPECT_EQ(registry.size(), 0U);
  const auto refusals = events.refusals();
  ASSERT_FALSE(refusals.empty());
  EXPECT_NE(refusals.front().find("intruder"), std::string::npos) << refusals.front();
}

TEST(ManagerRegistry, AStoppedWaitIsCancelledNotTimedOut) {
  RecordingEvents events;
  ManagerRegistry registry(options_with(std::nullopt), events);
  ASSERT_TRUE(registry.listen({"127.0.0.1", 0}));
  std::stop_source stop;
  std::jthread stopper([&stop] {
    std::this_thread::sleep_for(100ms);
    stop.request_stop();
  });
  const auto waited = registry.wait_for(1, 1h, stop.get_token());
  ASSERT_FALSE(waited);
  EXPECT_EQ(waited.error().code(), ErrorCode::cancelled);
  EXPECT_NE(waited.error().message().find("before the wait was stopped"), std::string::npos) << waited.error().describe();
}

TEST(ManagerRegistry, ASecondListenerIsRefused) {
  RecordingEvents events;
  ManagerRegistry registry(options_with(std::nullopt), events);
  ASSERT_TRUE(registry.listen({"127.0.0.1", 0}));
  const auto again = registry.listen({"127.0.0.1", 0});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), ErrorCode::invalid_argument);
  registry.stop_listening();
  EXPECT_FALSE(registry.is_listening());
}

TEST(ManagerRegistry, DiallingNothingNamesThePeer) {
  RecordingEvents events;
  ManagerRegistry registry(options_with(std::nullopt), events);
  // A listener opened and closed again: its port now refuses connections.
  std::uint16_t port = 0;
  {
    auto config = transport::make_session_config(protocol::Role::agent, "t", "t", "", std::nullopt);
    auto listener = transport::Listener::open({"127.0.0.1", 0}, config);
    ASSERT_TRUE(listener);
    port = (*listener)->port();
  }
  const auto dialled = registry.dial({"127.0.0.1", port});
  ASSERT_FALSE(dialled);
  EXPECT_NE(dialled.error().describe().find("127.0.0.1:" + std::to_string(port)), std::string::npos)
      << dialled.error().describe();
  EXPECT_EQ(events.refusals().size(), 1U);
}

}  // namespace
}  // namespace iomark::controller
