#include "cli_support.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <optional>

#include "iomark/common/host_name.hpp"
#include "iomark/transport/key_file.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::cli {

namespace {

// Configuration and results files are small; anything this large is not one of them.
constexpr off_t kMaxInputBytes = off_t{1} << 30;

Error io_failure(const std::string& path, std::string_view what, int error_number) {
  return Error(ErrorCode::io_error, std::string(what) + ": " + std::strerror(error_number)).at({path, 0});
}

}  // namespace

Result<std::string> read_text_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(io_failure(path, "cannot open", errno));
  std::string text;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size > kMaxInputBytes) {
    ::close(fd);
    return fail(Error(ErrorCode::invalid_argument, "larger than 1 GiB: not a configuration or results file")
                    .at({path, 0}));
  }
  if (size > 0) text.reserve(static_cast<std::size_t>(size));
  ::lseek(fd, 0, SEEK_SET);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      const int error_number = errno;
      ::close(fd);
      return fail(io_failure(path, "cannot read", error_number));
    }
    text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return text;
}

int report(const Error& error) {
  spdlog::error("{}", error.describe());
  return to_int(ExitCode::bad_input);
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
