#include "cli_support.hpp"

#include <cstdio>
#include <cstring>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <optional>

#include "iomark/common/host_name.hpp"
#include "iomark/common/text_file.hpp"
#include "iomark/transport/key_file.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::cli {

namespace {

// Configuration and results files are small; anything this large is not one of them.
constexpr std::uint64_t kMaxInputBytes = std::uint64_t{1} << 30;

}  // namespace

Result<std::string> read_text_file(const std::string& path) { return iomark::read_text_file(path, kMaxInputBytes); }

int report(const Error& error) {
  spdlog::error("{}", error.describe());
  return to_int(ExitCode::bad_input);
}

int usage_error(const Error& error) {
  spdlog::error("{}", error.describe());
  return to_int(ExitCode::usage);
}

Result<controller::RegistryOptions> registry_options(const run_options::ConnectionFlags& connection, bool embedded) {
  controller::RegistryOptions options;
  options.controller_name = local_host_name();
  options.build = "iomark " IOMARK_VERSION;
  if (embedded) return options;
  if (!connection.insecure) {
    auto loaded = transport::load_key(connection.key_file.empty()
                                          ? std::nullopt
                                          : std::optional<std::filesystem::path>(connection.key_file));
    if (!loaded) return fail(loaded.error());
    options.key = std::move(*loaded);
  }
  auto tls = transport::load_tls(connection.tls_cert, connection.tls_key, connection.tls_ca);
  if (!tls) return fail(tls.error());
  options.tls = std::move(*tls);
  return options;
}

int connect_failure(const Error& error) {
  spdlog::error("{}", error.describe());
  switch (error.code()) {
    case ErrorCode::io_error:
    case ErrorCode::not_found:
    case ErrorCode::timed_out:
    case ErrorCode::cancelled:
      return to_int(ExitCode::cannot_connect);
    case ErrorCode::validation_error:
    case ErrorCode::unsupported:
      return to_int(ExitCode::refused);
    default:
      return to_int(ExitCode::bad_input);
  }
}

}  // namespace iomark::cli
