// Reading a whole file into a string: the one reader of plans, results files and the small
// files of /proc and /sys.
//
// Errors: io_error naming the file (at file:0) and the system's reason when it cannot be
// opened or read, invalid_argument when it is larger than `max_bytes` (checked before
// anything is read, so a mistaken device or huge file is refused, not loaded). Blocking;
// any thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>

#include "iomark/common/result.hpp"

namespace iomark {

inline constexpr std::uint64_t kNoFileSizeLimit = std::numeric_limits<std::uint64_t>::max();

[[nodiscard]] Result<std::string> read_text_file(const std::filesystem::path& path,
                                                 std::uint64_t max_bytes = kNoFileSizeLimit);

}  // namespace iomark
