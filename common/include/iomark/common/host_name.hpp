// This machine's name, as agents and controllers introduce themselves.
#pragma once

#include <string>

namespace iomark {

// gethostname(), or "localhost" when the system has none.
[[nodiscard]] std::string local_host_name();

}  // namespace iomark
