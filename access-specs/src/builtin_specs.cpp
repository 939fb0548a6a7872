#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/ascii.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>


namespace iomark::access_specs {
namespace {

constexpr std::uint32_t kKiB = 1024;
constexpr std::uint32_t kMiB = 1024 * kKiB;

struct LineShape {
  std::uint32_t size_bytes;
  std::uint32_t percent_reads;
  std::uint32_t percent_random;
  std::uint32_t align_bytes;
};

AccessSpecLine make_line(const LineShape& shape, std::uint32_t percent_of_size) {
  AccessSpecLine line;
  line.size_bytes = shape.size_bytes;
  line.percent_of_size = percent_of_size;
  line.percent_reads = shape.percent_reads;
  line.percent_random = shape.percent_random;
  line.delay_ms = 0;
  line.burst_transactions = 1;
  line.align_bytes = shape.align_bytes;
  line.reply_bytes = 0;
  return line;
}

AccessSpec single_line_spec(std::string name, const LineShape& shape) {
  return AccessSpec{std::move(name), DefaultAssignment::none, {make_line(shape, 100)}};
}

// IOmeter 1.1.0 AccessSpecList::InsertDefaultSpecs (release build, new access specs on).
std::vector<AccessSpec> build_iometer_defaults() {
  struct Group {
    std::uint32_t size_bytes;
    std::string_view caption;  // IOmeter's own size caption
    std::vector<std::uint32_t> read_percents;
    bool aligned_random;
  };
  const std::array<Group, 7> groups{{
      {512, "512 B", {100, 75, 50, 25, 0}, false},
      {4 * kKiB, "4 KiB", {100, 75, 50, 25, 0}, false},
      {4 * kKiB, "4 KiB aligned", {100, 50, 0}, true},
      {16 * kKiB, "16 KiB", {100, 75, 50, 25, 0}, false},
      {32 * kKiB, "32 KiB", {100, 75, 50, 25, 0}, false},
      {64 * kKiB, "64 KiB", {100, 50, 0}, false},
      {256 * kKiB, "256 KiB", {100, 50, 0}, false},
  }};

  std::vector<AccessSpec> specs;
  specs.push_back(single_line_spec("Default", {2048, 67, 100, 2048}));
  std::vector<LineShape> all_lines;
  for (const Group& group : groups) {
    const std::uint32_t random = group.aligned_random ? 100 : 0;
    const std::uint32_t align = group.aligned_random ? group.size_bytes : 0;
    for (const std::uint32_t reads : group.read_percents) {
      const LineShape shape{group.size_bytes, reads, random, align};
      specs.push_back(single_line_spec(std::string(group.caption) + "; " + std::to_string(reads) +
                                           "% Read; " + std::to_string(random) + "% random",
                                       shape));
      all_lines.push_back(shape);
    }
  }

  AccessSpec all_in_one{"All in one", DefaultAssignment::none, {}};
  const auto count = static_cast<std::uint32_t>(all_lines.size());
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t share = 100 / count + (i < 100 % count ? 1 : 0);
    all_in_one.lines.push_back(make_line(all_lines[i], share));
  }
  specs.push_back(std::move(all_in_one));
  return specs;
}

AccessSpec mix_spec(std::string name, std::uint32_t percent_reads, std::uint32_t percent_random,
                    std::initializer_list<std::pair<std::uint32_t, std::uint32_t>> size_and_share) {
  AccessSpec spec{std::move(name), DefaultAssignment::none, {}};
  for (const auto& [size, share] : size_and_share) {
    spec.lines.push_back(make_line({size, percent_reads, percent_random, 0}, share));
  }
  return spec;
}

std::vector<AccessSpec> build_storage_patterns() {
  std::vector<AccessSpec> specs;
  specs.push_back(single_line_spec("Database", {8 * kKiB, 67, 100, 0}));
  // The Intel file-server mix.
  specs.push_back(mix_spec("Fileserver", 80, 100,
                           {{512, 10},
                            {1 * kKiB, 5},
                            {2 * kKiB, 5},
                            {4 * kKiB, 60},
                            {8 * kKiB, 2},
                            {16 * kKiB, 4},
                            {32 * kKiB, 4},
                            {64 * kKiB, 10}}));
  specs.push_back(mix_spec("Webserver", 100, 100,
                           {{512, 22},
                            {1 * kKiB, 15},
                            {2 * kKiB, 8},
                            {4 * kKiB, 23},
                            {8 * kKiB, 15},
                            {16 * kKiB, 2},
                            {32 * kKiB, 6},
                            {64 * kKiB, 7},
                            {128 * kKiB, 1},
                            {512 * kKiB, 1}}));
  specs.push_back(single_line_spec("Workstation", {8 * kKiB, 80, 80, 0}));
  specs.push_back(single_line_spec("OLTP", {8 * kKiB, 30, 100, 0}));
  specs.push_back(single_line_spec("VM 60% read", {4 * kKiB, 60, 55, 0}));
  specs.push_back(single_line_spec("VM 40% read", {4 * kKiB, 40, 55, 0}));
  specs.push_back(single_line_spec("Backup", {64 * kKiB, 100, 0, 0}));

  struct Micro {
    std::uint32_t size_bytes;
    std::string_view caption;
  };
  for (const Micro& micro :
       {Micro{4 * kKiB, "4K"}, Micro{8 * kKiB, "8K"}, Micro{64 * kKiB, "64K"}, Micro{1 * kMiB, "1M"}}) {
    for (const std::uint32_t random : {100U, 0U}) {
      for (const std::uint32_t reads : {100U, 0U}) {
        const std::string name = std::string(micro.caption) + (random == 100 ? " random " : " sequential ") +
                                 (reads == 100 ? "read" : "write");
        specs.push_back(single_line_spec(name, {micro.size_bytes, reads, random, micro.size_bytes}));
      }
    }
  }
  return specs;
}

constexpr std::array<SpecAlias, 1> kAliases{{{"Oracle", "OLTP"}}};

}  // namespace

std::span<const AccessSpec> iometer_default_specs() {
  static const std::vector<AccessSpec> specs = build_iometer_defaults();
  return specs;
}

std::span<const AccessSpec> storage_pattern_specs() {
  static const std::vector<AccessSpec> specs = build_storage_patterns();
  return specs;
}

std::span<const SpecAlias> builtin_spec_aliases() noexcept { return kAliases; }

const AccessSpec* find_builtin_spec(std::string_view name) {
  for (const auto list : {storage_pattern_specs(), iometer_default_specs()}) {
    for (const AccessSpec& spec : list) {
      if (ascii::iequals(spec.name, name)) return &spec;
    }
  }
  for (const SpecAlias& alias : kAliases) {
    if (ascii::iequals(alias.alias, name)) return find_builtin_spec(alias.spec_name);
  }
  return nullptr;
}

Result<AccessSpec> spec_from_name_or_line(std::string_view name, std::string_view line) {
  if (!line.empty()) {
    auto parsed = parse_spec_line(line);
    if (!parsed) return fail(Error(parsed.error()).in_field("spec line"));
    // Spec names cannot hold commas (the ICF and results.csv separate fields with them).
    auto name_text = "custom " + format_spec_line(*parsed);
    std::replace(name_text.begin(), name_text.end(), ',', '/');
    AccessSpec spec{std::move(name_text), DefaultAssignment::none, {*parsed}};
    if (auto valid = validate(spec); !valid) return fail(Error(valid.error()).in_field("spec line"));
    return spec;
  }
  if (const auto* spec = find_builtin_spec(name)) return *spec;
  return fail(Error(ErrorCode::not_found, "no built-in access spec \"" + std::string(name) +
                                              "\" (`iomark specs list` shows them)")
                  .in_field("spec"));
}

}  // namespace iomark::access_specs
