// iomark-agent's daemon mode: dial the controller like dynamo (-i), or listen for one
// (--listen), and serve it until told to stop.
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "iomark/run_options/run_flags.hpp"

namespace iomark::agent_app {

struct ServeOptions {
  std::string protocol{"iomark"};  // --protocol: iomark, or iometer (IOmeter 1.1.0's GUI drives us)
  std::string controller;  // -i HOST[:PORT]
  std::uint16_t port{1066};  // -p: the controller's port when -i names none
  std::string own_address;  // -m: how the controller may reach or show us
  std::string name;         // -n: manager name (default: host name)
  std::string listen;       // --listen [ADDR:]PORT
  run_options::ConnectionFlags connection;  // --key-file, --insecure, --tls-*
  std::vector<std::string> allow;
  bool allow_destructive{false};
};

// Serves controllers until `stop` is requested (SIGINT or SIGTERM); returns the process exit
// code (iomark::ExitCode). Logs through spdlog's default logger.
int serve(const ServeOptions& options, std::stop_token stop);

// --protocol iometer: log in to an IOmeter 1.1.0 GUI at -i as Dynamo does and serve it
// (serve_iometer.cpp). Returns the process exit code: 0 on EXIT MANAGER, on a GUI that closes
// the connection with no test running, and on `stop` (SIGINT, SIGTERM); 5 when the GUI
// answers WRONG_VERSION; 1 when the GUI is lost in the middle of a test or breaks the
// protocol; 3 for options the protocol cannot take.
int serve_iometer(const ServeOptions& options, std::stop_token stop);

}  // namespace iomark::agent_app
