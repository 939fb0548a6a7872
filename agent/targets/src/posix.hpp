// Small POSIX helpers shared by the targets sources (private to this library).
#pragma once

#include <unistd.h>

#include <optional>
#include <string>
#include <utility>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/targets/beneath.hpp"

namespace iomark::targets::detail {

// The library's descriptor owner (beneath.hpp).
using UniqueFd = Fd;

// strerror for `error` (thread-safe).
[[nodiscard]] std::string errno_text(int error);

// "<what>: <strerror>" as an Error; ENOENT becomes not_found, everything else `code`.
[[nodiscard]] Error os_error(ErrorCode code, const std::string& what, int error);

// "an ext4" / "a gpt": the article English wants before `word`.
[[nodiscard]] std::string with_article(const std::string& word);

// "4 MiB (4194304 bytes)" for messages.
[[nodiscard]] std::string describe_bytes(std::uint64_t bytes);

}  // namespace iomark::targets::detail
