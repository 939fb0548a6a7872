// Tells systemd how a Type=notify service is doing (sd_notify(3)); does nothing when not
// started by systemd (no NOTIFY_SOCKET).
#pragma once

#include <string_view>

namespace iomark::app_runtime {

// READY=1 with a status line for `systemctl status`: the service can be used now.
void notify_ready(std::string_view status);

// STATUS= alone: what the service is doing (e.g. "logging in to ...; retrying in 2 s").
void notify_status(std::string_view status);

// STOPPING=1: the service is shutting down on request.
void notify_stopping();

}  // namespace iomark::app_runtime
