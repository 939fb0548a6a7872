// Appending a writer's text to a results file so that it survives a crash.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::results {

// Opens `path` with O_APPEND (creating it with mode 0644 if missing), writes all of `text`
// (retrying short writes and EINTR), fsyncs and closes it. Earlier content is never
// touched. On failure returns ErrorCode::io_error whose message names the path and the
// system error; some of `text` may then have been written. Blocking; thread-safe as far as
// the operating system's append is (one writer per file is the intended use).
[[nodiscard]] Result<void> append_durably(const std::filesystem::path& path, std::string_view text);

// Writes `text` at byte `offset` of the existing file `path`, cuts the file off after it and
// fsyncs; the bytes before `offset` are not touched (ResultsJsonFile rewrites only the end of
// its document). Errors as append_durably.
[[nodiscard]] Result<void> rewrite_from_durably(const std::filesystem::path& path, std::uint64_t offset,
                                                std::string_view text);

// Replaces `path` with `text` as one step: writes and fsyncs `<path>.partial`, then renames
// it over `path`, so a reader or a crash sees the old document or the new one, never half
// of one (JSON results, converted .icf files). Errors as append_durably; the partial file
// is removed on failure.
[[nodiscard]] Result<void> replace_durably(const std::filesystem::path& path, std::string_view text);

}  // namespace iomark::results
