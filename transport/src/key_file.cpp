#include "iomark/transport/key_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>

#include "file_descriptor.hpp"

namespace iomark::transport {

namespace {

constexpr const char* kGenerateHint = "generate one with: head -c 32 /dev/urandom | base64 > FILE && chmod 600 FILE";

Error key_file_error(ErrorCode code, const std::filesystem::path& path, const std::string& why) {
  return Error(code, "key file " + path.string() + ": " + why).in_field("--key-file");
}

}  // namespace

Result<protocol::AuthKey> load_key_file(const std::filesystem::path& path) {
  // One descriptor for the checks and the read, so the file checked is the file read.
  const detail::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (file.get() < 0) {
    const int error = errno;
    return fail(key_file_error(error == ENOENT ? ErrorCode::not_found : ErrorCode::io_error, path,
                               error == ENOENT ? std::string("does not exist; ") + kGenerateHint
                                               : std::strerror(error)));
  }
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) return fail(key_file_error(ErrorCode::io_error, path, std::strerror(errno)));
  if (!S_ISREG(status.st_mode)) return fail(key_file_error(ErrorCode::io_error, path, "is not a regular file"));

  const auto mode = status.st_mode & 07777;
  if ((mode & (S_IROTH | S_IWOTH)) != 0 || (mode & S_IWGRP) != 0) {
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode));
    const auto who = (mode & S_IROTH) != 0 ? "readable by every user" : "writable by other users";
    return fail(key_file_error(ErrorCode::validation_error, path,
                               std::string("is ") + who + " (mode " + octal + "); it holds a password: run chmod 600 " +
                                   path.string()));
  }

  // Enough for the longest key plus surrounding whitespace; more is refused by from_text().
  std::string text(protocol::kMaxKeyBytes + 1024, '\0');
  std::size_t filled = 0;
  while (filled < text.size()) {
    const auto got = ::read(file.get(), text.data() + filled, text.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(key_file_error(ErrorCode::io_error, path, std::strerror(errno)));
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  text.resize(filled);
  if (text.find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
    return fail(key_file_error(ErrorCode::invalid_argument, path, std::string("is empty; ") + kGenerateHint));
  }
  auto key = protocol::AuthKey::from_text(text);
  if (!key) return fail(key_file_error(key.error().code(), path, key.error().message()));
  return key;
}

Result<protocol::AuthKey> load_key(const std::optional<std::filesystem::path>& key_file) {
  if (key_file) return load_key_file(*key_file);
  const char* value = std::getenv(kKeyEnvironmentVariable);
  if (value == nullptr) {
    return fail(Error(ErrorCode::not_found,
                      "no pre-shared key: give --key-file FILE or set IOMARK_KEY on both sides (or run both with "
                      "--insecure on a trusted network)")
                    .in_field("--key-file"));
  }
  const std::string_view text(value);
  if (text.find_first_not_of(" \t\r\n\v\f") == std::string_view::npos) {
    return fail(Error(ErrorCode::invalid_argument, "IOMARK_KEY is set but empty").in_field(kKeyEnvironmentVariable));
  }
  auto key = protocol::AuthKey::from_text(text);
  if (!key) {
    return fail(Error(key.error().code(), std::string("IOMARK_KEY: ") + key.error().message())
                    .in_field(kKeyEnvironmentVariable));
  }
  return key;
}

}  // namespace iomark::transport
