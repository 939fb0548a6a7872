#include "iomark/app_runtime/exit_status.hpp"

#include <spdlog/spdlog.h>

namespace iomark::app_runtime {

int exit_with(ExitCode code, const Error& error) {
  spdlog::error("{}", error.describe());
  return to_int(code);
}

}  // namespace iomark::app_runtime
