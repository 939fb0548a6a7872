#include "cli_support.hpp"

#include "iomark/app_runtime/credentials.hpp"
#include "iomark/common/host_name.hpp"
#include "iomark/common/text_file.hpp"

namespace iomark::cli {

namespace {

// Configuration and results files are small; anything this large is not one of them.
constexpr std::uint64_t kMaxInputBytes = std::uint64_t{1} << 30;

}  // namespace

Result<std::string> read_text_file(const std::string& path) { return iomark::read_text_file(path, kMaxInputBytes); }

Result<controller::RegistryOptions> registry_options(const run_options::ConnectionFlags& connection, bool embedded) {
  controller::RegistryOptions options;
  options.controller_name = local_host_name();
  options.build = "iomark " IOMARK_VERSION;
  if (embedded) return options;
  auto credentials = app_runtime::load_credentials(connection, app_runtime::KeyNeed::required);
  if (!credentials) return fail(credentials.error());
  options.key = std::move(credentials->key);
  options.tls = std::move(credentials->tls);
  return options;
}

int connect_failure(const Error& error) {
  switch (error.code()) {
    case ErrorCode::io_error:
    case ErrorCode::not_found:
    case ErrorCode::timed_out:
    case ErrorCode::cancelled:
      return app_runtime::exit_with(ExitCode::cannot_connect, error);
    case ErrorCode::validation_error:
    case ErrorCode::unsupported:
      return app_runtime::exit_with(ExitCode::refused, error);
    default:
      return bad_input(error);
  }
}

}  // namespace iomark::cli
