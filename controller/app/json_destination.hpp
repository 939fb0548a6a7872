// Where `iomark run --json` writes: the named file, or with "-" standard output. The recorder
// rewrites its JSON file after every run (so a stopped series leaves valid JSON), which
// standard output cannot do: "-" records into a private temporary file, copied to standard
// output once the series ends and removed with this object.
#pragma once

#include <string>

#include "iomark/common/result.hpp"

namespace iomark::cli {

class JsonDestination {
 public:
  // `requested` as given to --json: "" (no JSON), "-" or a path.
  [[nodiscard]] static Result<JsonDestination> open(const std::string& requested);
  JsonDestination(JsonDestination&& other) noexcept;
  JsonDestination& operator=(JsonDestination&&) = delete;
  JsonDestination(const JsonDestination&) = delete;
  JsonDestination& operator=(const JsonDestination&) = delete;
  ~JsonDestination();

  // The path the recorder writes ("" for no JSON).
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] bool to_standard_output() const noexcept { return temporary_; }
  // With "-": writes the recorded JSON to standard output. Otherwise does nothing.
  [[nodiscard]] Result<void> copy_to_standard_output() const;

 private:
  JsonDestination(std::string path, bool temporary) : path_(std::move(path)), temporary_(temporary) {}

  std::string path_;
  bool temporary_;
};

}  // namespace iomark::cli
