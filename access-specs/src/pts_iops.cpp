#include "iomark/access_specs/pts_iops.hpp"

#include <algorithm>
#include <charconv>

#include "iomark/common/units.hpp"

namespace iomark::access_specs {

namespace {

std::vector<std::string_view> items_of(std::string_view text) {
  std::vector<std::string_view> items;
  while (true) {
    const auto comma = text.find(',');
    auto item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    items.push_back(item);
    if (comma == std::string_view::npos) return items;
    text.remove_prefix(comma + 1);
  }
}

Error refused(std::string_view field, std::string message) {
  return Error(ErrorCode::invalid_argument, std::move(message)).in_field(std::string(field));
}

std::optional<std::uint32_t> percent_of(std::string_view text) {
  std::uint32_t value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value > 100) return std::nullopt;
  return value;
}

}  // namespace

Result<std::vector<std::uint64_t>> parse_pts_block_sizes(std::string_view text) {
  constexpr std::string_view field = "--block-sizes";
  std::vector<std::uint64_t> sizes;
  for (const auto item : items_of(text)) {
    const auto size = parse_size(item);
    if (!size || size->count() == 0 || size->count() % 512 != 0 || size->count() > kMaxPtsBlockBytes) {
      return fail(refused(field, "\"" + std::string(item) + "\" is not a block size: a multiple of 512 bytes up to 1M"));
    }
    if (std::find(sizes.begin(), sizes.end(), size->count()) != sizes.end()) {
      return fail(refused(field, "\"" + std::string(item) + "\" is given twice"));
    }
    sizes.push_back(size->count());
  }
  return sizes;
}

Result<std::vector<std::uint32_t>> parse_pts_mixes(std::string_view text) {
  constexpr std::string_view field = "--mixes";
  std::vector<std::uint32_t> reads;
  for (const auto item : items_of(text)) {
    const auto slash = item.find('/');
    const auto read = slash == std::string_view::npos ? std::nullopt : percent_of(item.substr(0, slash));
    const auto write = slash == std::string_view::npos ? std::nullopt : percent_of(item.substr(slash + 1));
    if (!read || !write || *read + *write != 100) {
      return fail(refused(field, "\"" + std::string(item) + "\" is not a mix: READ/WRITE percentages adding to 100, "
                                                            "e.g. 65/35"));
    }
    if (std::find(reads.begin(), reads.end(), *read) != reads.end()) {
      return fail(refused(field, "\"" + std::string(item) + "\" is given twice"));
    }
    reads.push_back(*read);
  }
  return reads;
}

Result<void> check_pts_matrix(const PtsIopsMatrix& matrix) {
  if (std::find(matrix.block_bytes.begin(), matrix.block_bytes.end(), kPtsTrackedBlockBytes) == matrix.block_bytes.end()) {
    return fail(refused("--block-sizes", "must hold 4K: the steady state is judged on 4 KiB random writes"));
  }
  if (std::find(matrix.read_percents.begin(), matrix.read_percents.end(), kPtsTrackedReadPercent) ==
      matrix.read_percents.end()) {
    return fail(refused("--mixes", "must hold 0/100: the steady state is judged on 4 KiB random writes"));
  }
  return {};
}

std::string pts_block_text(std::uint64_t block_bytes) {
  if (block_bytes % (std::uint64_t{1} << 20) == 0) return std::to_string(block_bytes >> 20) + " MiB";
  if (block_bytes % 1024 == 0) return std::to_string(block_bytes >> 10) + " KiB";
  return std::to_string(block_bytes) + " B";
}

std::string pts_mix_text(std::uint32_t read_percent) {
  return std::to_string(read_percent) + "/" + std::to_string(100 - read_percent);
}

AccessSpec pts_iops_spec(std::uint64_t block_bytes, std::uint32_t read_percent) {
  AccessSpecLine line;
  line.size_bytes = static_cast<std::uint32_t>(block_bytes);
  line.percent_of_size = 100;
  line.percent_reads = read_percent;
  line.percent_random = 100;
  line.align_bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(block_bytes, kPtsTrackedBlockBytes));
  return AccessSpec{.name = "PTS " + pts_block_text(block_bytes) + " " + pts_mix_text(read_percent),
                    .default_assignment = DefaultAssignment::none,
                    .lines = {line}};
}

std::vector<AccessSpec> pts_iops_specs(const PtsIopsMatrix& matrix) {
  std::vector<AccessSpec> specs;
  for (const auto read_percent : matrix.read_percents) {
    for (const auto block_bytes : matrix.block_bytes) specs.push_back(pts_iops_spec(block_bytes, read_percent));
  }
  return specs;
}

}  // namespace iomark::access_specs
