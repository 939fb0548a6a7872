// iomark's data-reduction patterns: write data that block compressors shrink R:1
// and that deduplicates D:1 across a target, beside IOmeter's three patterns.
//
// Text form, as `--data-pattern`, the `.icf` extension line and JSON take it:
//   compress:R            R >= 1, decimals allowed ("2", "3.5"); compress:1 is incompressible
//   dedupe:D[/UNIT]       D >= 1 (decimals allowed); UNIT the dedupe unit: 4k (default), 8k,
//                         16k ... 1m, or plain bytes ("8192"); a power of two, 4 KiB..1 MiB
//   compress:R,dedupe:D   both, in either order
// to_string() writes the canonical form: compress first, ratios in their shortest exact
// decimal form, the unit only when it is not 4k, and a ratio of 1 left out (so
// "compress:2,dedupe:1" reads back as "compress:2"; "compress:1" stays when both are 1).
//
// Value types and pure functions only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::access_specs {

inline constexpr std::uint32_t kDefaultDedupeUnitBytes = 4096;
inline constexpr std::uint32_t kMinDedupeUnitBytes = 4096;
inline constexpr std::uint32_t kMaxDedupeUnitBytes = 1U << 20;
// Above this the compressors' own per-block overhead (a few bytes per run) decides the ratio
// more than the data does; the generator's accuracy is tested up to here.
inline constexpr double kMaxCompressRatio = 16.0;
inline constexpr double kMaxDedupeRatio = 1'000'000.0;

struct DataReduction {
  double compress_ratio{1.0};  // uncompressed / compressed bytes the data is made for
  double dedupe_ratio{1.0};    // dedupe units written / distinct units, over a whole target
  std::uint32_t dedupe_unit_bytes{kDefaultDedupeUnitBytes};
  friend bool operator==(const DataReduction&, const DataReduction&) = default;
};

// Ranges above; errors are invalid_argument naming the field ("compress", "dedupe", "dedupe unit").
[[nodiscard]] Result<void> validate(const DataReduction& reduction);

// The text form above. Errors: parse_error (grammar) or invalid_argument (range), the message
// quoting the text.
[[nodiscard]] Result<DataReduction> parse_data_reduction(std::string_view text);
[[nodiscard]] std::string to_string(const DataReduction& reduction);

}  // namespace iomark::access_specs
