// legacy_relay CONTROLLER_PORT TRANSCRIPT: stands between iomark's controller and one manager
// speaking IOmeter 1.1.0 (the real Dynamo, or iomark-agent --protocol iometer) and writes down
// their command-channel conversation, so that a test can compare the two managers' side of it.
//
// The manager logs in to the relay's login port (printed on stdout as "relay login port N"),
// which passes the login on to 127.0.0.1:CONTROLLER_PORT with the announced command port
// replaced by its own; the controller's connect-back reaches the relay, which connects on to
// the manager's real command port. From then on every byte is passed on unchanged, and each
// exchange (the controller's turn, then the manager's, until the controller speaks again)
// becomes one line of TRANSCRIPT: "REPORT_UPDATE 1 -> block", messages by purpose and data,
// Data_Message images as "block". The stream has no framing; a turn is split into messages and
// blocks by its length and its known purposes (docs/iometer-reference.md#wire-encoding), which is
// unambiguous for what IOmeter's peers send. Exits 0 when either side closes, 1 on a setup failure.
//
// With RESULTS_PREFIX, the manager's login block goes to RESULTS_PREFIX.login and its answer
// to the N-th REPORT_RESULTS (the Manager_Results and Worker_Results blocks, as sent) to
// RESULTS_PREFIX.N, for tools/legacy_gui_figures.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/wire.hpp"
#include "iomark/transport/legacy_socket.hpp"

namespace {

using iomark::transport::Clock;
using iomark::transport::LegacyListener;
using iomark::transport::LegacySocket;
namespace legacy = iomark::legacy;

constexpr auto kStepDeadline = std::chrono::seconds(30);

// "SET_ACCESS 0 + block": the messages and blocks of one turn.
std::string describe_turn(std::span<const std::byte> turn) {
  std::string text;
  while (!turn.empty()) {
    if (!text.empty()) text += " + ";
    std::optional<legacy::Message> message;
    if (turn.size() >= legacy::kMessageBytes) {
      if (auto decoded = legacy::decode_message(turn.first(legacy::kMessageBytes))) message = *decoded;
    }
    // A known purpose opens a message, unless the turn's rest is exactly one block.
    const bool is_message = message && legacy::is_known(message->purpose) && turn.size() != legacy::kDataMessageBytes;
    if (is_message) {
      text += std::string(legacy::to_string(message->purpose)) + " " + std::to_string(message->data);
      turn = turn.subspan(legacy::kMessageBytes);
    } else if (turn.size() >= legacy::kDataMessageBytes) {
      text += "block";
      turn = turn.subspan(legacy::kDataMessageBytes);
    } else {
      text += "garbage " + std::to_string(turn.size()) + " bytes";
      turn = {};
    }
  }
  return text;
}

int fail(const std::string& what, const iomark::Error& error) {
  std::cerr << "legacy_relay: " << what << ": " << error.describe() << '\n';
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: legacy_relay CONTROLLER_PORT TRANSCRIPT [RESULTS_PREFIX]\n";
    return 2;
  }
  const std::string results_prefix = argc == 4 ? argv[3] : "";
  const auto save = [&results_prefix](const std::string& suffix, std::span<const std::byte> bytes) {
    if (results_prefix.empty()) return;
    std::ofstream(results_prefix + "." + suffix, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  };
  const auto controller_port = static_cast<std::uint16_t>(std::stoi(argv[1]));
  std::ofstream transcript(argv[2]);
  auto login_port = LegacyListener::open_any_port();
  auto command_port = LegacyListener::open_any_port();
  if (!login_port || !command_port) return fail("listening", login_port ? command_port.error() : login_port.error());
  std::cout << "relay login port " << login_port->port() << std::endl;

  // The login, passed on with our command port in place of the manager's.
  auto manager_login = login_port->accept(Clock::now() + std::chrono::seconds(60));
  if (!manager_login) return fail("waiting for the manager's login", manager_login.error());
  auto controller_login = LegacySocket::connect("127.0.0.1", controller_port, Clock::now() + kStepDeadline);
  if (!controller_login) return fail("connecting to the controller", controller_login.error());
  std::array<std::byte, legacy::kMessageBytes> message{};
  auto block = legacy::make_data_block();
  if (auto got = manager_login->receive_exact(message, Clock::now() + kStepDeadline); !got) return fail("LOGIN", got.error());
  if (auto got = manager_login->receive_exact(block, Clock::now() + kStepDeadline); !got) return fail("login block", got.error());
  auto info = legacy::decode_manager_info(block);
  if (!info) return fail("login block", info.error());
  save("login", block);
  const auto manager_command_port = info->command_port;
  info->command_port = command_port->port();
  auto rewritten = legacy::encode_manager_info(*info);
  if (!rewritten) return fail("login block", rewritten.error());
  if (auto sent = controller_login->send_all(message, Clock::now() + kStepDeadline); !sent) return fail("LOGIN", sent.error());
  if (auto sent = controller_login->send_all(*rewritten, Clock::now() + kStepDeadline); !sent) return fail("login", sent.error());
  if (auto got = controller_login->receive_exact(message, Clock::now() + kStepDeadline); !got) return fail("LOGIN_OK", got.error());
  if (auto sent = manager_login->send_all(message, Clock::now() + kStepDeadline); !sent) return fail("LOGIN_OK", sent.error());

  auto controller = command_port->accept(Clock::now() + kStepDeadline);
  if (!controller) return fail("waiting for the connect-back", controller.error());
  auto manager = LegacySocket::connect("127.0.0.1", manager_command_port, Clock::now() + kStepDeadline);
  if (!manager) return fail("connecting to the manager's command port", manager.error());

  // Pass everything on; a line per exchange.
  std::vector<std::byte> controller_turn;
  std::vector<std::byte> manager_turn;
  int results_answers = 0;
  const auto write_exchange = [&] {
    if (controller_turn.empty() && manager_turn.empty()) return;
    const auto asked = describe_turn(controller_turn);
    if (asked.starts_with("REPORT_RESULTS")) save(std::to_string(++results_answers), manager_turn);
    transcript << asked << " -> " << describe_turn(manager_turn) << '\n';
    controller_turn.clear();
    manager_turn.clear();
  };
  std::vector<std::byte> buffer(64 * 1024);
  for (;;) {
    std::array<pollfd, 2> ready{pollfd{controller->fd(), POLLIN, 0}, pollfd{manager->fd(), POLLIN, 0}};
    if (::poll(ready.data(), ready.size(), 1000) < 0) break;
    bool closed = false;
    for (std::size_t side = 0; side < ready.size(); ++side) {
      if ((ready[side].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const auto got = ::recv(ready[side].fd, buffer.data(), buffer.size(), 0);
      if (got <= 0) {
        closed = true;
        break;
      }
      const auto bytes = std::span(buffer).first(static_cast<std::size_t>(got));
      auto& to = side == 0 ? *manager : *controller;
      if (!to.send_all(bytes, Clock::now() + kStepDeadline)) {
        closed = true;
        break;
      }
      if (side == 0 && !manager_turn.empty()) write_exchange();  // the controller speaks again
      auto& turn = side == 0 ? controller_turn : manager_turn;
      turn.insert(turn.end(), bytes.begin(), bytes.end());
    }
    if (closed) break;
  }
  write_exchange();
  return 0;
}
