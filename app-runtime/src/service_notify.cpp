#include "iomark/app_runtime/service_notify.hpp"

#include <systemd/sd-daemon.h>

#include <string>

namespace iomark::app_runtime {

// libsystemd's sd_notify rather than a hand-written datagram: it handles abstract socket
// names and sends credentials as systemd expects, and Debian installs libsystemd0 everywhere.
// Its result is ignored: a service manager that cannot be told is not a reason to stop.

void notify_ready(std::string_view status) {
  const std::string message = "READY=1\nSTATUS=" + std::string(status);
  (void)sd_notify(0, message.c_str());
}

void notify_status(std::string_view status) {
  const std::string message = "STATUS=" + std::string(status);
  (void)sd_notify(0, message.c_str());
}

void notify_stopping() { (void)sd_notify(0, "STOPPING=1"); }

}  // namespace iomark::app_runtime
