#include "json_destination.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli_support.hpp"
#include "iomark/run_options/run_flags.hpp"

namespace iomark::cli {

Result<JsonDestination> JsonDestination::open(const std::string& requested) {
  if (requested != run_options::kStandardOutput) return JsonDestination(requested, false);
  std::error_code error;
  auto pattern = (std::filesystem::temp_directory_path(error) / "iomark-json-XXXXXX").string();
  if (error) pattern = "/tmp/iomark-json-XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) {
    return fail(Error(ErrorCode::io_error, std::string("cannot make a temporary file for --json -: ") +
                                               std::strerror(errno))
                    .at({pattern, 0}));
  }
  ::close(fd);
  return JsonDestination(std::move(pattern), true);
}

JsonDestination::JsonDestination(JsonDestination&& other) noexcept
    : path_(std::move(other.path_)), temporary_(other.temporary_) {
  other.temporary_ = false;
  other.path_.clear();
}

JsonDestination::~JsonDestination() {
  if (temporary_) ::unlink(path_.c_str());
}

Result<void> JsonDestination::copy_to_standard_output() const {
  if (!temporary_) return {};
  auto text = read_text_file(path_);
  if (!text) return fail(text.error());
  std::cout << *text << std::flush;
  return {};
}

}  // namespace iomark::cli
