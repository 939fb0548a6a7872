#include "icf_reader_context.hpp"

#include <limits>

#include "icf_format.hpp"

namespace iomark::icf::detail {

namespace {

// The lines split_lines() would make (LF, CR or CRLF end a line), without making them.
std::uint64_t count_lines(std::string_view text) {
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++count;
  }
  if (!text.empty() && text.back() != '\n' && text.back() != '\r') ++count;  // a last line without its end
  return count;
}

}  // namespace

ReaderContext::ReaderContext(std::string_view text, std::string_view file_name)
    : line_count_(count_lines(text)), file_(file_name) {
  if (line_count_ <= kMaxIcfLines) lines_ = split_lines(text);
}

Result<void> ReaderContext::check_lines() {
  if (line_count_ > kMaxIcfLines) {
    return fail(Error(ErrorCode::parse_error, "the file has " + std::to_string(line_count_) + " lines (at most " +
                                                  std::to_string(kMaxIcfLines) + " are accepted)")
                    .at({file_, kMaxIcfLines + 1}));
  }
  constexpr std::size_t kMaxFieldLength = 120;
  std::string_view owner = "Version";
  for (const Line& line : lines_) {
    if (line.is_key()) {
      owner = format::field_name(line.text.substr(0, line.text.find('\0')));
      owner = owner.substr(0, kMaxFieldLength);
    }
    if (line.raw.find('\0') != std::string_view::npos) {
      return fail(error(line, owner, "the line holds a NUL byte; this is not a text .icf file"));
    }
    if (line.raw.size() > kMaxLineLength) {
      return fail(error(line, owner,
                        "the line is " + std::to_string(line.raw.size()) + " characters long (at most " +
                            std::to_string(kMaxLineLength) + " are accepted)"));
    }
    if (line.raw.size() > kLegacyMaxLineLength) {
      warn(line, "the line is longer than the 199 characters IOmeter 1.1.0 can read");
    }
  }
  return {};
}

bool ReaderContext::is_section_header(const Line& line) noexcept {
  if (!line.is_key()) return false;
  for (const auto tag : {format::kTestSetupTag, format::kResultsDisplayTag, format::kAccessSpecsTag,
                         format::kManagerListTag}) {
    if (istarts_with(line.text, tag)) return true;
  }
  return line.text.size() >= 4 && line.text.substr(line.text.size() - 4) == "====";
}

bool ReaderContext::is_boundary(const Line& line) noexcept {
  return is_section_header(line) || istarts_with(line.text, format::kVersionPrefix) ||
         istarts_with(line.text, "'Version");
}

bool ReaderContext::is_valueless_key(std::string_view key) noexcept {
  return istarts_with(key, "'End") || istarts_with(key, "'Version");
}

Result<const Line*> ReaderContext::next_key() {
  while (const Line* line = peek()) {
    if (line->blank()) {
      warn(*line, "blank line ignored (IOmeter 1.1.0 rejects blank lines where a key is expected)");
      take();
      continue;
    }
    if (is_boundary(*line)) return nullptr;
    if (!line->is_key()) {
      if (line->text.front() != '\'') {
        return fail(error(*line, format::field_name(last_key_),
                          "expected a key line starting with ', found '" + excerpt(line->text) + "'"));
      }
      warn(*line, "key line indented; IOmeter 1.1.0 reads it as a value");
    }
    last_key_ = line->text;
    return &take();
  }
  return nullptr;
}

void ReaderContext::skip_captions(KeyPredicate is_known) noexcept {
  while (const Line* line = peek()) {
    if (!line->is_key() || is_valueless_key(line->text) || is_boundary(*line) || is_known(line->text)) return;
    take();
  }
}

Result<Line> ReaderContext::value_of(const Line& key, KeyPredicate is_known) {
  skip_captions(is_known);
  const Line* candidate = peek();
  if (candidate == nullptr) {
    return fail(error(key, format::field_name(key.text), "the file ends before the value of this key"));
  }
  if (candidate->is_key()) {
    warn(key, "'" + excerpt(format::field_name(key.text)) + "' has no value line; read as empty");
    return Line{{}, {}, key.number};
  }
  take();
  if (!candidate->blank()) return *candidate;
  // A blank line between a key and its value: IOmeter reads an empty value; take the value
  // that follows instead when there plainly is one.
  std::size_t ahead = pos_;
  while (ahead < lines_.size() && lines_[ahead].blank()) ++ahead;
  if (ahead < lines_.size() && !lines_[ahead].is_key() && !is_boundary(lines_[ahead])) {
    warn(*candidate, "blank line between '" + excerpt(format::field_name(key.text)) + "' and its value ignored");
    pos_ = ahead + 1;
    return lines_[ahead];
  }
  return *candidate;
}

void ReaderContext::skip_unknown(const Line& key, KeyPredicate is_known, std::string_view where) {
  warn(key, "unknown key '" + excerpt(format::field_name(key.text)) + "' in " + std::string(where) + " ignored");
  if (is_valueless_key(key.text)) return;
  skip_captions(is_known);
  if (const Line* next = peek(); next != nullptr && !next->is_key() && !is_boundary(*next)) take();
}

Error ReaderContext::missing_end(std::string_view end_key, std::string_view block, const Line* found) const {
  const std::string message = std::string(block) + " has no '" + std::string(format::field_name(end_key)) + "' line";
  if (found != nullptr) return error(*found, format::field_name(end_key), message);
  if (const Line* line = peek()) return error(*line, format::field_name(end_key), message);
  const std::uint64_t last = lines_.empty() ? 1 : lines_.back().number;
  return error(Line{{}, {}, last}, format::field_name(end_key), message + " (the file ends first)");
}

Error ReaderContext::error(const Line& line, std::string_view field, std::string message, ErrorCode code) const {
  // A bare "'" line is a key without a name; errors still name something.
  const std::string name = field.empty() ? std::string("(unnamed key)") : std::string(field);
  return Error(code, std::move(message)).at({file_, line.number}).in_field(name);
}

void ReaderContext::warn(const Line& line, std::string message) { warn(line.number, std::move(message)); }

void ReaderContext::warn(std::uint64_t line, std::string message) {
  if (warnings_.size() < kMaxWarnings) {
    warnings_.push_back(Warning{line, std::move(message)});
  } else if (!warnings_truncated_) {
    warnings_truncated_ = true;
    warnings_.push_back(Warning{line, "too many warnings; the rest are not reported"});
  }
}

Result<std::uint32_t> ReaderContext::read_u32(std::string_view& rest, const Line& line, std::string_view field) const {
  return read_u64(rest, line, field).and_then([&](std::uint64_t value) -> Result<std::uint32_t> {
    if (value > std::numeric_limits<std::uint32_t>::max()) {
      return fail(error(line, field, std::to_string(value) + " does not fit in 32 bits", ErrorCode::invalid_argument));
    }
    return static_cast<std::uint32_t>(value);
  });
}

Result<std::uint64_t> ReaderContext::read_u64(std::string_view& rest, const Line& line, std::string_view field) const {
  auto scanned = scan_int(rest);
  if (!scanned) {
    const auto code = scanned.error().find("bits") != std::string::npos ? ErrorCode::invalid_argument
                                                                         : ErrorCode::parse_error;
    return fail(error(line, field, scanned.error(), code));
  }
  if (scanned->negative && scanned->magnitude != 0) {
    return fail(error(line, field, "-" + std::to_string(scanned->magnitude) + " is negative",
                      ErrorCode::invalid_argument));
  }
  return scanned->magnitude;
}

}  // namespace iomark::icf::detail
