// The state one read_icf() call shares between its section parsers: the lines, a cursor,
// the warnings and the helpers that turn §1.1 scanner results into located errors.
// Internal to iomark::icf.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/icf/icf.hpp"
#include "icf_text.hpp"

namespace iomark::icf::detail {

// Lines longer than this are refused (a 10 MB "line" is not an ICF); IOmeter itself stops at 199.
inline constexpr std::size_t kMaxLineLength = 64 * 1024;
inline constexpr std::size_t kLegacyMaxLineLength = 199;
// Files with more lines are refused before their lines are indexed (docs/icf-compatibility.md,
// "Limits"): a real .icf has a few hundred to a few thousand; 1 Mi lines of an index cost
// about 40 MiB, where 50 MB of newlines once cost 2.7 GB.
inline constexpr std::uint64_t kMaxIcfLines = std::uint64_t{1} << 20;
// After this many warnings one summary warning is added and the rest are dropped.
inline constexpr std::size_t kMaxWarnings = 1000;

// Whether a key belongs to the block being read (such keys are never skipped as captions).
using KeyPredicate = bool (*)(std::string_view key);

class ReaderContext {
 public:
  ReaderContext(std::string_view text, std::string_view file_name);

  // Refuses more than kMaxIcfLines lines, NUL bytes and over-long lines, naming the key the
  // offending line belongs to;
  // warns about lines IOmeter's 199-character buffer would break.
  [[nodiscard]] Result<void> check_lines();

  [[nodiscard]] bool at_end() const noexcept { return pos_ >= lines_.size(); }
  // nullptr at the end of the text.
  [[nodiscard]] const Line* peek() const noexcept { return at_end() ? nullptr : &lines_[pos_]; }
  const Line& take() noexcept { return lines_[pos_++]; }

  // A section header line ('TEST SETUP ===..., or any key ending in "====").
  [[nodiscard]] static bool is_section_header(const Line& line) noexcept;
  // Where a block that is still open must have ended: a section header or a Version line.
  [[nodiscard]] static bool is_boundary(const Line& line) noexcept;
  // Keys that never take a value line ('End..., 'Version...).
  [[nodiscard]] static bool is_valueless_key(std::string_view key) noexcept;

  // The next key of a block, skipping blank lines with a warning. nullptr (nothing consumed)
  // at the end of the text, a section header or a Version line. A data line where a key
  // belongs is an error naming the previous key.
  [[nodiscard]] Result<const Line*> next_key();

  // The value line of `key` (IOmeter's GetPair): caption lines starting with ' are skipped
  // unless `is_known` claims them; a blank line is an empty value. A key that is directly
  // followed by another key gets an empty value and a warning.
  [[nodiscard]] Result<Line> value_of(const Line& key, KeyPredicate is_known);

  // Consumes an unknown key (and its value) with a warning naming `where`.
  void skip_unknown(const Line& key, KeyPredicate is_known, std::string_view where);

  // The error for a block whose end marker never came, located at `found` (the line that
  // showed it missing) or else at the current line.
  [[nodiscard]] Error missing_end(std::string_view end_key, std::string_view block,
                                  const Line* found = nullptr) const;

  [[nodiscard]] Error error(const Line& line, std::string_view field, std::string message,
                            ErrorCode code = ErrorCode::parse_error) const;
  void warn(const Line& line, std::string message);
  void warn(std::uint64_t line, std::string message);

  // Scanner + range check; `field` names the value in errors.
  [[nodiscard]] Result<std::uint32_t> read_u32(std::string_view& rest, const Line& line, std::string_view field) const;
  [[nodiscard]] Result<std::uint64_t> read_u64(std::string_view& rest, const Line& line, std::string_view field) const;

  [[nodiscard]] std::vector<Warning> take_warnings() { return std::move(warnings_); }
  void set_last_key(std::string_view key) noexcept { last_key_ = key; }

  std::uint64_t version_number{};

 private:
  void skip_captions(KeyPredicate is_known) noexcept;

  std::vector<Line> lines_;
  std::uint64_t line_count_{};  // as split_lines counts them; lines_ stays empty above kMaxIcfLines
  std::size_t pos_{};
  std::string file_;
  std::vector<Warning> warnings_;
  bool warnings_truncated_{false};
  std::string_view last_key_;
};

}  // namespace iomark::icf::detail
