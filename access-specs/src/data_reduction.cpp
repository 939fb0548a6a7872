#include "iomark/access_specs/data_reduction.hpp"

#include <bit>
#include <charconv>
#include <cmath>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/units.hpp"

namespace iomark::access_specs {
namespace {

constexpr std::string_view kCompressKey = "compress:";
constexpr std::string_view kDedupeKey = "dedupe:";

Error bad_text(std::string_view text, const std::string& why) {
  return Error(ErrorCode::parse_error, "\"" + std::string(text) + "\": " + why +
                                           " (expected compress:R, dedupe:D[/UNIT] or both, e.g. compress:2,dedupe:3/8k)");
}

std::optional<double> parse_ratio(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string ratio_text(double ratio) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, ratio);  // shortest exact form
  return std::string(text, result.ptr);
}

std::string unit_text(std::uint32_t bytes) {
  if (bytes % (1U << 20) == 0) return std::to_string(bytes >> 20) + "m";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + "k";
  return std::to_string(bytes);
}

}  // namespace

Result<void> validate(const DataReduction& reduction) {
  if (!(reduction.compress_ratio >= 1.0 && reduction.compress_ratio <= kMaxCompressRatio)) {
    return fail(Error(ErrorCode::invalid_argument, "compress ratio " + ratio_text(reduction.compress_ratio) +
                                                       " is outside 1.." + ratio_text(kMaxCompressRatio))
                    .in_field("compress"));
  }
  if (!(reduction.dedupe_ratio >= 1.0 && reduction.dedupe_ratio <= kMaxDedupeRatio)) {
    return fail(Error(ErrorCode::invalid_argument, "dedupe ratio " + ratio_text(reduction.dedupe_ratio) +
                                                       " is outside 1.." + ratio_text(kMaxDedupeRatio))
                    .in_field("dedupe"));
  }
  const auto unit = reduction.dedupe_unit_bytes;
  if (!std::has_single_bit(unit) || unit < kMinDedupeUnitBytes || unit > kMaxDedupeUnitBytes) {
    return fail(Error(ErrorCode::invalid_argument,
                      "dedupe unit " + std::to_string(unit) + " bytes is not a power of two from 4k to 1m")
                    .in_field("dedupe unit"));
  }
  return {};
}

Result<DataReduction> parse_data_reduction(std::string_view text) {
  DataReduction reduction;
  bool seen_compress = false;
  bool seen_dedupe = false;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (item.starts_with(kCompressKey) && !seen_compress) {
      seen_compress = true;
      const auto ratio = parse_ratio(item.substr(kCompressKey.size()));
      if (!ratio) return fail(bad_text(text, "the compress ratio is not a decimal number"));
      reduction.compress_ratio = *ratio;
    } else if (item.starts_with(kDedupeKey) && !seen_dedupe) {
      seen_dedupe = true;
      std::string_view value = item.substr(kDedupeKey.size());
      const auto slash = value.find('/');
      if (slash != std::string_view::npos) {
        const auto unit = parse_size(value.substr(slash + 1));
        if (!unit || unit->count() > UINT32_MAX) return fail(bad_text(text, "the dedupe unit is not a size"));
        reduction.dedupe_unit_bytes = static_cast<std::uint32_t>(unit->count());
        value = value.substr(0, slash);
      }
      const auto ratio = parse_ratio(value);
      if (!ratio) return fail(bad_text(text, "the dedupe ratio is not a decimal number"));
      reduction.dedupe_ratio = *ratio;
    } else {
      return fail(bad_text(text, "\"" + std::string(item) + "\" is not understood"));
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (auto valid = validate(reduction); !valid) {
    return fail(Error(valid.error().code(), "\"" + std::string(text) + "\": " + valid.error().message())
                    .in_field(valid.error().field()));
  }
  return reduction;
}

std::string to_string(const DataReduction& reduction) {
  std::string text;
  if (reduction.compress_ratio != 1.0) text = std::string(kCompressKey) + ratio_text(reduction.compress_ratio);
  if (reduction.dedupe_ratio != 1.0 || reduction.dedupe_unit_bytes != kDefaultDedupeUnitBytes) {
    if (!text.empty()) text += ',';
    text += std::string(kDedupeKey) + ratio_text(reduction.dedupe_ratio);
    if (reduction.dedupe_unit_bytes != kDefaultDedupeUnitBytes) text += "/" + unit_text(reduction.dedupe_unit_bytes);
  }
  return text.empty() ? std::string(kCompressKey) + "1" : text;
}

Result<WriteData> parse_write_data(std::string_view text) {
  if (const auto pattern = parse_data_pattern(text)) return WriteData{*pattern, std::nullopt};
  if (!text.starts_with(kCompressKey) && !text.starts_with(kDedupeKey)) {
    return fail(Error(ErrorCode::parse_error, "\"" + std::string(text) +
                                                  "\" is not a data pattern (repeating, pseudo-random, full-random, "
                                                  "compress:R, dedupe:D[/UNIT] or both)")
                    .in_field("--data-pattern"));
  }
  auto reduction = parse_data_reduction(text);
  if (!reduction) return fail(Error(reduction.error()).in_field("--data-pattern"));
  return WriteData{kReductionFallbackPattern, *reduction};
}

std::string to_string(const WriteData& data) {
  if (data.reduction) return to_string(*data.reduction);
  switch (data.pattern) {
    case DataPattern::repeating_bytes: return "repeating";
    case DataPattern::pseudo_random: return "pseudo-random";
    case DataPattern::full_random: return "full-random";
  }
  return "";
}

}  // namespace iomark::access_specs
