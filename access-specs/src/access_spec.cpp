#include "iomark/access_specs/access_spec.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/common/ascii.hpp"
#include "iomark/common/units.hpp"

namespace iomark::access_specs {
namespace {

// The line's members in descriptor (= ICF column) order, so that validation and parsing walk
// the descriptor table instead of naming fields a second time.
constexpr std::array<std::uint32_t AccessSpecLine::*, 8> kLineMembers{
    &AccessSpecLine::size_bytes,     &AccessSpecLine::percent_of_size, &AccessSpecLine::percent_reads,
    &AccessSpecLine::percent_random, &AccessSpecLine::delay_ms,        &AccessSpecLine::burst_transactions,
    &AccessSpecLine::align_bytes,    &AccessSpecLine::reply_bytes};
static_assert(static_cast<std::size_t>(FieldId::size) == 0 &&
                  static_cast<std::size_t>(FieldId::reply) + 1 == kLineMembers.size(),
              "spec-line FieldIds must come first and match kLineMembers");

constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

std::uint32_t AccessSpecLine::*member_of(const FieldDescriptor& d) {
  return kLineMembers[static_cast<std::size_t>(d.id)];
}

constexpr bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool all_digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

tl::unexpected<Error> name_error(const std::string& who, std::string message) {
  return fail(Error(ErrorCode::validation_error, who + ": " + std::move(message)).in_field("name"));
}

Result<void> check_name(const std::string& name, const std::string& who) {
  if (name.empty()) return name_error(who, "name is empty");
  if (name.size() > kMaxSpecNameLength) {
    return name_error(who, "name is " + std::to_string(name.size()) + " bytes long, at most " +
                               std::to_string(kMaxSpecNameLength) + " fit in an ICF file");
  }
  for (char c : {',', '|'}) {
    if (name.find(c) != std::string::npos) {
      return name_error(who, std::string("name contains '") + c + "', which the ICF uses as a separator");
    }
  }
  const auto is_control = [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  };
  if (std::any_of(name.begin(), name.end(), is_control)) {
    return name_error(who, "name contains a control character");
  }
  if (is_blank(name.front())) {
    return name_error(who, "name starts with a blank, which the ICF reader drops");
  }
  return {};
}

tl::unexpected<Error> field_error(std::size_t position, const FieldDescriptor& d,
                                  const std::string& message) {
  return fail(Error(ErrorCode::parse_error,
                    "field " + std::to_string(position) + " ('" + std::string(d.icf_name) + "')" + message)
                  .in_field(std::string(d.key)));
}

Result<std::uint32_t> parse_field(std::string_view raw, std::size_t position, const FieldDescriptor& d) {
  const std::string_view text = ascii::trim(raw);
  const std::string quoted = "'" + std::string(text) + "'";
  if (text.empty()) return field_error(position, d, " is empty");
  if (text.front() == '-') return field_error(position, d, ": " + quoted + " is negative");

  std::uint64_t value = 0;
  if (all_digits(text)) {
    if (std::from_chars(text.data(), text.data() + text.size(), value).ec == std::errc::result_out_of_range) {
      value = kU32Max + 1;
    }
  } else if (d.unit == FieldUnit::bytes) {
    const std::optional<Bytes> bytes = parse_size(text);
    if (!bytes) return field_error(position, d, ": " + quoted + " is not a size (e.g. 4096, 4k, 64KiB)");
    value = bytes->count();
  } else {
    return field_error(position, d, ": " + quoted + " is not a number");
  }
  if (value > kU32Max) {
    return field_error(position, d, ": " + quoted + " is too large, at most " + std::to_string(kU32Max));
  }
  return static_cast<std::uint32_t>(value);
}

}  // namespace

bool writes(const AccessSpec& spec) noexcept {
  return std::any_of(spec.lines.begin(), spec.lines.end(), [](const AccessSpecLine& line) {
    return line.percent_of_size != 0 && (line.percent_reads < 100 || line.reply_bytes != 0);
  });
}

Result<void> validate(const AccessSpec& spec) {
  const std::string who = "spec '" + spec.name + "'";
  if (auto named = check_name(spec.name, who); !named) return named;

  if (to_string(spec.default_assignment).empty()) {
    return fail(Error(ErrorCode::validation_error,
                      who + ": default assignment " +
                          std::to_string(static_cast<unsigned>(spec.default_assignment)) +
                          " is not one of NONE, ALL, DISK, NET")
                    .in_field("default_assignment"));
  }
  if (spec.lines.empty() || spec.lines.size() > kMaxSpecLines) {
    return fail(Error(ErrorCode::validation_error, who + ": has " + std::to_string(spec.lines.size()) +
                                                       " lines, must have 1 to " +
                                                       std::to_string(kMaxSpecLines))
                    .in_field("lines"));
  }

  std::uint64_t total_percent = 0;
  for (std::size_t i = 0; i < spec.lines.size(); ++i) {
    const AccessSpecLine& line = spec.lines[i];
    for (const FieldDescriptor& d : field_descriptors(FieldGroup::spec_line)) {
      const std::uint32_t value = line.*member_of(d);
      if (!d.accepts(value)) return check_field(d.id, value, who + " line " + std::to_string(i + 1));
    }
    total_percent += line.percent_of_size;
  }
  if (total_percent != 100) {
    const FieldDescriptor& d = field_descriptor(FieldId::percent_of_size);
    return fail(Error(ErrorCode::validation_error, who + ": '" + std::string(d.icf_name) + "' totals " +
                                                       std::to_string(total_percent) + ", must be 100")
                    .in_field(std::string(d.key)));
  }
  return {};
}

Result<AccessSpecLine> parse_spec_line(std::string_view text) {
  std::string_view rest = ascii::trim(text);
  if (!rest.empty() && rest.back() == ',') rest.remove_suffix(1);

  std::array<std::string_view, kLineMembers.size()> fields{};
  std::size_t count = 0;
  while (true) {
    const std::size_t comma = rest.find(',');
    if (count < fields.size()) fields[count] = rest.substr(0, comma);
    ++count;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }

  const auto descriptors = field_descriptors(FieldGroup::spec_line);
  if (count != fields.size()) {
    std::string expected;
    for (const FieldDescriptor& d : descriptors) {
      if (!expected.empty()) expected += ',';
      expected += d.icf_name;
    }
    return fail(ErrorCode::parse_error, "expected " + std::to_string(fields.size()) +
                                            " comma-separated fields (" + expected + "), found " +
                                            std::to_string(count));
  }

  AccessSpecLine line;
  for (std::size_t i = 0; i < descriptors.size(); ++i) {
    const Result<std::uint32_t> value = parse_field(fields[i], i + 1, descriptors[i]);
    if (!value) return fail(value.error());
    line.*member_of(descriptors[i]) = *value;
  }
  return line;
}

std::string format_spec_line(const AccessSpecLine& line) {
  std::string text;
  for (const auto member : kLineMembers) {
    if (!text.empty()) text += ',';
    text += std::to_string(line.*member);
  }
  return text;
}

std::string_view to_string(DefaultAssignment assignment) noexcept {
  switch (assignment) {
    case DefaultAssignment::none: return "NONE";
    case DefaultAssignment::all: return "ALL";
    case DefaultAssignment::disk: return "DISK";
    case DefaultAssignment::network: return "NET";
  }
  return "";
}

std::optional<DefaultAssignment> parse_default_assignment(std::string_view literal) noexcept {
  for (const auto assignment : {DefaultAssignment::none, DefaultAssignment::all, DefaultAssignment::disk,
                                DefaultAssignment::network}) {
    if (ascii::iequals(literal, to_string(assignment))) return assignment;
  }
  return std::nullopt;
}

}  // namespace iomark::access_specs
