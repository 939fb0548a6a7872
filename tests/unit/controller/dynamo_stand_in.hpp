// The stand-in Dynamo the controller's Dynamo tests run against: sockets that speak the
// legacy codec, and a fixture with a DynamoAcceptor and a registry that log it in
// (docs/iometer-reference.md#login) and answer REPORT_TARGETS.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "iomark/dynamo_adapter/dynamo_acceptor.hpp"
#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/test_spec.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/legacy/wire.hpp"

namespace iomark::controller {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class RecordingEvents final : public ManagerEvents {
 public:
  void manager_refused(const Error& error) override {
    std::lock_guard lock(mutex_);
    refused_.push_back(error.describe());
  }
  std::vector<std::string> refusals() {
    std::lock_guard lock(mutex_);
    return refused_;
  }
  // Waits up to `timeout` for a refusal and returns it (empty if none came).
  std::string wait_refusal(std::chrono::milliseconds timeout) {
    const auto end = Clock::now() + timeout;
    while (Clock::now() < end) {
      if (auto all = refusals(); !all.empty()) return all.front();
      std::this_thread::sleep_for(10ms);
    }
    return {};
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> refused_;
};

// A blocking socket with a 10 s receive timeout, so a broken test cannot hang.
class Peer {
 public:
  explicit Peer(int fd) : fd_(fd) {
    timeval limit{10, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  }
  Peer(Peer&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  ~Peer() {
    if (fd_ >= 0) ::close(fd_);
  }
  static Peer dial(std::uint16_t port) {
    Peer peer(::socket(AF_INET, SOCK_STREAM, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::connect(peer.fd_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    return peer;
  }
  void send(std::span<const std::byte> bytes) const {
    ASSERT_EQ(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  }
  // The bytes received until `size` arrived or the peer closed.
  std::vector<std::byte> receive(std::size_t size) const {
    std::vector<std::byte> bytes(size);
    std::size_t got = 0;
    while (got < size) {
      const auto n = ::recv(fd_, bytes.data() + got, size - got, 0);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);
    return bytes;
  }
  int fd() const { return fd_; }

 private:
  int fd_;
};

// A listening socket on 127.0.0.1:0: the stand-in Dynamo's command port.
struct CommandPort {
  int fd{::socket(AF_INET, SOCK_STREAM, 0)};
  std::uint16_t port{};
  CommandPort() {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(::listen(fd, 1), 0);
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
  }
  ~CommandPort() { ::close(fd); }
  Peer accept() const { return Peer(::accept(fd, nullptr, nullptr)); }
};

legacy::Message decode(const std::vector<std::byte>& bytes) {
  EXPECT_EQ(bytes.size(), legacy::kMessageBytes);
  if (bytes.size() != legacy::kMessageBytes) return {};
  return legacy::decode_message(bytes).value();
}

class DynamoAcceptorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = DynamoAcceptor::start({"127.0.0.1", 0}, registry_, events_);
    ASSERT_TRUE(started.has_value()) << started.error().describe();
    acceptor_ = std::move(*started);
    const auto& endpoint = acceptor_->endpoint();
    port_ = static_cast<std::uint16_t>(std::stoi(endpoint.substr(endpoint.rfind(':') + 1)));
  }

  legacy::DataBlock login_block(std::uint16_t command_port, const std::string& name = "fake-dynamo") {
    return legacy::encode_manager_info({"1.1.0", name, "127.0.0.1", command_port, 2, 2.5e9}).value();
  }

  // Logs in as Dynamo does and serves REPORT_TARGETS with one logical disk, its iobw.tst
  // `ready` or not, and the TCP NICs `nics` (dotted addresses, as Dynamo names them).
  Peer log_in_and_report(CommandPort& command, bool ready = true, const std::vector<std::string>& nics = {},
                         const std::string& name = "fake-dynamo") {
    auto login = Peer::dial(port_);
    login.send(legacy::encode_message({legacy::Purpose::login, legacy::kVersionCode_1_1_0}));
    login.send(login_block(command.port, name));
    const auto reply = decode(login.receive(legacy::kMessageBytes));
    EXPECT_EQ(reply, (legacy::Message{legacy::Purpose::login, legacy::kLoginOkData}));
    auto channel = command.accept();
    EXPECT_EQ(decode(channel.receive(legacy::kMessageBytes)),
              (legacy::Message{legacy::Purpose::report_targets, legacy::kManager}));
    legacy::TargetSpec disk;
    disk.name = "/tmp/fake [ext4]";
    disk.type = legacy::target_type::kLogicalDisk;
    disk.details = legacy::DiskDetails{false, false, ready, 4096, 0, 0};
    const std::vector<legacy::TargetSpec> disks{disk};
    std::vector<legacy::TargetSpec> tcp_nics;
    for (const auto& address : nics) {
      legacy::TargetSpec nic;
      nic.name = address;
      nic.type = legacy::target_type::kTcpClient;  // as Dynamo reports a NIC: "interface to access a client"
      nic.details = legacy::TcpDetails{};
      tcp_nics.push_back(nic);
    }
    channel.send(legacy::encode_target_list(disks).value());
    channel.send(legacy::encode_target_list(tcp_nics).value());
    channel.send(legacy::encode_target_list({}).value());
    return channel;
  }

  // The stand-in logged in and is registered as a manager with its targets, refused nothing.
  void expect_registered(CommandPort& command) {
    auto channel = log_in_and_report(command);
    ASSERT_TRUE(registry_.wait_for(1, 5s).has_value());
    const auto* link = registry_.links().front();
    EXPECT_EQ(link->name(), "fake-dynamo");
    EXPECT_EQ(link->peer().build, "Dynamo 1.1.0");
    EXPECT_EQ(link->peer().timer_resolution_hz, 2.5e9);  // results.csv "Processor Speed"
    EXPECT_EQ(link->inventory().cpu_count, 2U);
    ASSERT_EQ(link->inventory().file_systems.size(), 1U);
    EXPECT_EQ(link->inventory().file_systems[0].mount_point, "/tmp/fake");
    EXPECT_EQ(link->inventory().file_systems[0].type, "ext4");
    EXPECT_TRUE(events_.refusals().empty());
  }

  // Another version is answered WRONG_VERSION, as IOmeter's GUI does, and refused naming it.
  void expect_wrong_version_answered() {
    auto login = Peer::dial(port_);
    login.send(legacy::encode_message({legacy::Purpose::login, 20060727}));
    EXPECT_EQ(decode(login.receive(legacy::kMessageBytes)),
              (legacy::Message{legacy::Purpose::login, static_cast<std::int32_t>(legacy::Purpose::wrong_version)}));
    const auto refusal = events_.wait_refusal(5s);
    EXPECT_NE(refusal.find("20060727"), std::string::npos) << refusal;
  }

  RecordingEvents events_;
  ManagerRegistry registry_{RegistryOptions{std::nullopt, "test", "iomark test"}, events_};
  std::unique_ptr<DynamoAcceptor> acceptor_;
  std::uint16_t port_{};
};

}  // namespace
}  // namespace iomark::controller
