// How fast the preparing in progress (a test file, or --precondition's passes) goes and how long
// it has left, as the console and the GUI print it: over what this path has written since its
// first report, so a pass starting over or another path starts the measure again.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "iomark/controller/series_runner.hpp"

namespace iomark::controller {

class PreparingRate {
 public:
  struct Estimate {
    double bytes_per_s{};
    double remaining_s{};
  };
  // The estimate at `now`; nullopt for the first second of a path, or while it writes nothing.
  [[nodiscard]] std::optional<Estimate> update(const PrepareFigures& figures, std::chrono::steady_clock::time_point now);

 private:
  std::string path_;
  std::chrono::steady_clock::time_point since_{};
  std::uint64_t from_bytes_{};
};

}  // namespace iomark::controller
