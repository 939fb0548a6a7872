// Small POSIX helpers shared by the targets sources (private to this library).
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
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

struct FreeDeleter {
  void operator()(std::byte* memory) const noexcept { std::free(memory); }
};
using AlignedBuffer = std::unique_ptr<std::byte[], FreeDeleter>;

// A buffer of at least `bytes` that O_DIRECT takes on a device of `sector`-byte sectors: aligned
// to the page or the sector, whichever is larger. Null when memory runs out.
[[nodiscard]] AlignedBuffer direct_io_buffer(std::uint64_t sector, std::uint64_t bytes);

// Writes all of `buffer` at `offset`, resuming after short writes. Returns the bytes written
// and the errno of the write that stopped it (0 when everything was written).
[[nodiscard]] std::pair<std::size_t, int> write_fully(int fd, std::span<const std::byte> buffer, std::uint64_t offset);

}  // namespace iomark::targets::detail
