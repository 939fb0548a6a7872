// iomark-agent's daemon mode: dial the controller like dynamo (-i), or listen for one
// (--listen), and serve it until told to stop.
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

namespace iomark::agent_app {

struct ServeOptions {
  std::string controller;  // -i HOST[:PORT]
  std::uint16_t port{1066};  // -p: the controller's port when -i names none
  std::string own_address;  // -m: how the controller may reach or show us
  std::string name;         // -n: manager name (default: host name)
  std::string listen;       // --listen [ADDR:]PORT
  std::string key_file;
  bool insecure{false};
  std::string tls_cert;  // --tls-cert, --tls-key, --tls-ca: all three, or none (plain TCP)
  std::string tls_key;
  std::string tls_ca;
  std::vector<std::string> allow;
  bool allow_destructive{false};
};

// Serves controllers until `stop` is requested (SIGINT or SIGTERM); returns the process exit
// code (iomark::ExitCode). Logs through spdlog's default logger.
int serve(const ServeOptions& options, std::stop_token stop);

}  // namespace iomark::agent_app
