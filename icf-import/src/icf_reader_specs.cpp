// ACCESS SPECIFICATIONS (docs/iometer-reference.md#icf-access-specs): the named 8-column format and
// the unnamed 6-column format of files older than 1998.05.21.
#include <array>
#include <charconv>
#include <limits>
#include <string>
#include <unordered_map>

#include "icf_format.hpp"
#include "icf_sections.hpp"

namespace iomark::icf::detail {

namespace {

using access_specs::AccessSpec;
using access_specs::AccessSpecLine;
using access_specs::DefaultAssignment;
using access_specs::kMaxSpecLines;

constexpr std::size_t kColumns = format::kSpecColumns.size();
constexpr std::size_t kOldColumns = 6;  // size, % of size, % reads, % random, delay, burst

bool is_spec_key(std::string_view key) {
  return iequals(key, format::kSpecNameKey) || iequals(key, format::kEndAccessSpecs);
}

// The specs read so far, with IOmeter's merge rule: a name seen again replaces the earlier spec.
class SpecList {
 public:
  void add(ReaderContext& cx, const Line& where, AccessSpec spec) {
    auto [slot, inserted] = index_.try_emplace(to_lower(spec.name), specs_.size());
    if (inserted) {
      specs_.push_back(std::move(spec));
      return;
    }
    cx.warn(where, "access specification '" + excerpt(spec.name) +
                       "' is defined twice; the later one replaces the earlier, as in IOmeter");
    specs_[slot->second] = std::move(spec);
  }
  [[nodiscard]] bool contains(std::string_view name) const { return index_.count(to_lower(name)) != 0; }
  [[nodiscard]] std::vector<AccessSpec> release() { return std::move(specs_); }

 private:
  std::vector<AccessSpec> specs_;
  std::unordered_map<std::string, std::size_t> index_;
};

// One column value: a whole non-negative number; the three percentages at most 100.
Result<std::uint32_t> read_column(const ReaderContext& cx, const Line& line, std::string_view text,
                                  std::size_t column) {
  const std::string_view field = format::kSpecColumns[column];
  text = trim(text);
  std::uint64_t value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || end != text.data() + text.size()) {
    if (!text.empty() && text.front() == '-') {
      return fail(cx.error(line, field, "'" + excerpt(text) + "' is negative", ErrorCode::invalid_argument));
    }
    return fail(cx.error(line, field, "expected a number, found '" + excerpt(text) + "'"));
  }
  if (status == std::errc::result_out_of_range || value > std::numeric_limits<std::uint32_t>::max()) {
    return fail(cx.error(line, field, excerpt(text) + " does not fit in 32 bits", ErrorCode::invalid_argument));
  }
  const bool percentage = column >= 1 && column <= 3;
  if (percentage && value > 100) {
    return fail(cx.error(line, field, std::to_string(value) + " is more than 100 %", ErrorCode::invalid_argument));
  }
  return static_cast<std::uint32_t>(value);
}

Result<AccessSpecLine> read_columns(const ReaderContext& cx, const Line& line,
                                    const std::vector<std::string_view>& fields) {
  std::array<std::uint32_t, kColumns> values{};
  for (std::size_t column = 0; column < fields.size() && column < kColumns; ++column) {
    auto value = read_column(cx, line, fields[column], column);
    if (!value) return fail(value.error());
    values[column] = *value;
  }
  return AccessSpecLine{values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]};
}

std::vector<std::string_view> split(std::string_view text, std::string_view separators) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find_first_of(separators, start);
    fields.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return fields;
    start = end + 1;
  }
}

// `size,% of size,% reads,% random,delay,burst,align,reply` (IOmeter's results file adds a
// trailing comma). Lines without align and reply are read with both 0.
Result<AccessSpecLine> read_named_format_line(ReaderContext& cx, const Line& line) {
  auto fields = split(line.text, ",");
  if (fields.size() == kColumns + 1 && trim(fields.back()).empty()) fields.pop_back();
  if (fields.size() < kOldColumns) {
    return fail(cx.error(line, format::kSpecColumns[fields.size()],
                         "expected " + std::to_string(kColumns) + " comma-separated values, found " +
                             std::to_string(fields.size())));
  }
  if (fields.size() < kColumns) {
    cx.warn(line, "access specification line without align/reply; read as 0 (IOmeter 1.1.0 misreads such lines)");
  } else if (fields.size() > kColumns) {
    cx.warn(line, "values after the eighth (reply) ignored");
  }
  return read_columns(cx, line, fields);
}

Result<DefaultAssignment> read_assignment(ReaderContext& cx, const Line& value, std::string_view text) {
  const std::string_view token = scan_token(text);
  for (const auto assignment : {DefaultAssignment::none, DefaultAssignment::all, DefaultAssignment::disk,
                                DefaultAssignment::network}) {
    if (iequals(token, format::assignment_literal(assignment))) return assignment;
  }
  std::uint32_t number = 0;
  const auto [end, status] = std::from_chars(token.data(), token.data() + token.size(), number);
  if (status == std::errc() && end == token.data() + token.size() && number <= 3) {
    return static_cast<DefaultAssignment>(number);
  }
  cx.warn(value, "default assignment '" + excerpt(token) + "' unknown; read as NONE");
  return DefaultAssignment::none;
}

// One `'Access specification name,default assignment` block, the key already consumed.
Result<AccessSpec> read_named_spec(ReaderContext& cx, const Line& key) {
  auto value = cx.value_of(key, &is_spec_key);
  if (!value) return fail(value.error());
  AccessSpec spec;
  const auto comma = value->text.find(',');
  spec.name = std::string(value->text.substr(0, comma));
  if (comma == std::string_view::npos) {
    cx.warn(*value, "no default assignment after the name; read as NONE");
  } else {
    auto assignment = read_assignment(cx, *value, value->text.substr(comma + 1));
    if (!assignment) return fail(assignment.error());
    spec.default_assignment = *assignment;
  }
  if (const Line* caption = cx.peek(); caption != nullptr && caption->is_key() && !is_spec_key(caption->text) &&
                                       !ReaderContext::is_boundary(*caption)) {
    cx.take();
  } else {
    cx.warn(*value, "no column caption line after the access specification name");
  }
  std::uint64_t total = 0;
  while (const Line* line = cx.peek()) {
    if (line->is_key() || ReaderContext::is_boundary(*line)) break;
    cx.take();
    if (line->blank()) {
      cx.warn(*line, "blank line inside access specification '" + excerpt(spec.name) + "' ignored");
      continue;
    }
    if (spec.lines.size() == kMaxSpecLines) {
      return fail(cx.error(*line, format::kSpecLinesField,
                           "access specification '" + excerpt(spec.name) + "' has more than " +
                               std::to_string(kMaxSpecLines) + " lines",
                           ErrorCode::invalid_argument));
    }
    auto spec_line = read_named_format_line(cx, *line);
    if (!spec_line) return fail(spec_line.error());
    if (spec_line->size_bytes == 0 && spec_line->percent_of_size == 0) {
      cx.warn(*line, "placeholder line (size 0, 0 % of size) in '" + excerpt(spec.name) + "' dropped");
      continue;
    }
    total += spec_line->percent_of_size;
    spec.lines.push_back(*spec_line);
  }
  if (total != 100) {
    return fail(cx.error(*value, "% of size",
                         "the '% of size' values of access specification '" + excerpt(spec.name) + "' add up to " +
                             std::to_string(total) + ", not 100",
                         ErrorCode::validation_error));
  }
  return spec;
}

Result<std::vector<AccessSpec>> read_named_format(ReaderContext& cx) {
  SpecList specs;
  while (true) {
    auto key = cx.next_key();
    if (!key) return fail(key.error());
    if (*key == nullptr) return fail(cx.missing_end(format::kEndAccessSpecs, "the ACCESS SPECIFICATIONS section"));
    const Line& k = **key;
    if (iequals(k.text, format::kEndAccessSpecs)) return specs.release();
    if (!iequals(k.text, format::kSpecNameKey)) {
      cx.skip_unknown(k, &is_spec_key, "ACCESS SPECIFICATIONS");
      continue;
    }
    auto spec = read_named_spec(cx, k);
    if (!spec) return fail(spec.error());
    specs.add(cx, k, std::move(*spec));
  }
}

// IOmeter's SmartName for an unnamed single-line spec: "2 KiB random 67% reads".
std::string smart_name(const AccessSpecLine& line) {
  std::string name;
  if (line.size_bytes == 512) name = "512 B";
  else if (line.size_bytes == 1048576) name = "1 MiB";
  else name = std::to_string(line.size_bytes / 1024) + " KiB";
  if (line.percent_random == 0) name += " sequential";
  else if (line.percent_random == 100) name += " random";
  else name += " " + std::to_string(line.percent_random) + "% random";
  if (line.percent_reads == 0) name += " writes";
  else if (line.percent_reads == 100) name += " reads";
  else name += " " + std::to_string(line.percent_reads) + "% reads";
  return name;
}

// IOmeter's names for unnamed specs: the smart name, made unique with " 2", " 3" ..., or
// "Untitled N" for specs of several lines. Counters make many equal specs cost linear time.
class UnnamedSpecNamer {
 public:
  std::string name(const SpecList& specs, const std::vector<AccessSpecLine>& lines) {
    if (lines.size() != 1) {
      std::string name;
      do {
        name = "Untitled " + std::to_string(++untitled_);
      } while (specs.contains(name));
      return name;
    }
    const std::string base = smart_name(lines.front());
    if (!specs.contains(base)) return base;
    auto& suffix = next_suffix_.try_emplace(to_lower(base), 2).first->second;
    std::string name;
    do {
      name = base + " " + std::to_string(suffix++);
    } while (specs.contains(name));
    return name;
  }

 private:
  std::size_t untitled_{};
  std::unordered_map<std::string, std::size_t> next_suffix_;
};

// Whitespace-separated `size of_size reads random delay burst` lines; consecutive lines form
// one spec until their `% of size` adds up to 100 (IOmeter's LoadConfigOld).
Result<std::vector<AccessSpec>> read_unnamed_format(ReaderContext& cx) {
  if (const Line* caption = cx.peek(); caption != nullptr && caption->is_key() && !is_spec_key(caption->text) &&
                                       !ReaderContext::is_boundary(*caption)) {
    cx.take();
  }
  SpecList specs;
  std::vector<AccessSpecLine> pending;
  std::uint64_t total = 0;
  std::uint64_t first_line = 0;
  UnnamedSpecNamer namer;
  while (const Line* line = cx.peek()) {
    if (line->is_key() || ReaderContext::is_boundary(*line)) break;
    cx.take();
    if (line->blank()) {
      cx.warn(*line, "blank line among the access specification lines ignored");
      continue;
    }
    std::vector<std::string_view> fields;
    for (const auto field : split(line->text, " \t,")) {
      if (!field.empty()) fields.push_back(field);
    }
    if (fields.size() < kOldColumns) {
      return fail(cx.error(*line, format::kSpecColumns[fields.size()],
                           "expected 6 values (size, % of size, % reads, % random, delay, burst), found " +
                               std::to_string(fields.size())));
    }
    if (fields.size() > kOldColumns) cx.warn(*line, "values after the sixth (burst) ignored");
    fields.resize(kOldColumns);
    auto spec_line = read_columns(cx, *line, fields);
    if (!spec_line) return fail(spec_line.error());
    if (spec_line->percent_of_size == 0) {
      cx.warn(*line, "line with 0 % of size dropped, as IOmeter does");
      continue;
    }
    if (pending.empty()) first_line = line->number;
    if (pending.size() == kMaxSpecLines) {
      return fail(cx.error(*line, format::kSpecLinesField,
                           "an access specification has more than " + std::to_string(kMaxSpecLines) + " lines",
                           ErrorCode::invalid_argument));
    }
    total += spec_line->percent_of_size;
    pending.push_back(*spec_line);
    if (total > 100) {
      return fail(cx.error(*line, "% of size", "the '% of size' values add up to more than 100",
                           ErrorCode::validation_error));
    }
    if (total == 100) {
      AccessSpec spec{namer.name(specs, pending), DefaultAssignment::all, std::move(pending)};
      specs.add(cx, *line, std::move(spec));
      pending.clear();
      total = 0;
    }
  }
  if (!pending.empty()) {
    cx.warn(first_line, "the last access specification adds up to " + std::to_string(total) +
                            " % instead of 100 and is dropped, as IOmeter does");
  }
  if (const Line* end = cx.peek(); end != nullptr && iequals(end->text, format::kEndAccessSpecs)) cx.take();
  return specs.release();
}

bool holds_unnamed_format(ReaderContext& cx) {
  const bool old_version = cx.version_number < format::kNewSpecFormatVersion;
  const Line* first = cx.peek();
  while (first != nullptr && first->blank()) {
    cx.warn(*first, "blank line after the ACCESS SPECIFICATIONS header ignored");
    cx.take();
    first = cx.peek();
  }
  if (first == nullptr || !first->is_key()) return old_version;
  if (old_version && iequals(first->text, format::kSpecNameKey)) {
    cx.warn(*first, "the file's version predates named access specifications (1998.05.21), but it holds "
                    "them; read as named");
    return false;
  }
  if (!old_version && !is_spec_key(first->text) && istarts_with(first->text, "'size") &&
      !iequals(first->text, format::kSpecLinesCaption)) {
    cx.warn(*first, "unnamed 6-column access specifications in a file of a later version; read as such "
                    "(IOmeter 1.1.0 rejects them)");
    return true;
  }
  return old_version;
}

}  // namespace

Result<std::vector<AccessSpec>> read_access_specs(ReaderContext& cx) {
  return holds_unnamed_format(cx) ? read_unnamed_format(cx) : read_named_format(cx);
}

}  // namespace iomark::icf::detail
