#include "iomark/legacy/test_spec.hpp"

#include <limits>

#include "byte_image.hpp"

namespace iomark::legacy {

namespace spec_layout = test_spec_layout;
namespace line_layout = access_spec_layout;

namespace {

constexpr std::size_t line_offset(std::size_t index) {
  return kDataUnionOffset + spec_layout::kAccess + index * line_layout::kBytes;
}

std::string line_field(std::size_t index, std::string_view member) {
  return "Test_Spec.access[" + std::to_string(index) + "]." + std::string(member);
}

// A signed wire field that must hold 0..max.
Result<std::uint32_t> get_bounded(std::span<const std::byte> block, std::size_t index, std::size_t member_offset,
                                  std::string_view member, std::int64_t max) {
  const auto value = image::get_i32(block, line_offset(index) + member_offset);
  if (value < 0 || value > max) {
    return fail(Error(ErrorCode::parse_error,
                      std::to_string(value) + " is outside 0.." + std::to_string(max))
                    .in_field(line_field(index, member)));
  }
  return static_cast<std::uint32_t>(value);
}

Result<void> put_signed(std::span<std::byte> block, std::size_t index, std::size_t member_offset,
                        std::string_view member, std::uint32_t value) {
  if (value > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max())) {
    return fail(Error(ErrorCode::invalid_argument, std::to_string(value) + " does not fit a signed 32-bit field")
                    .in_field(line_field(index, member)));
  }
  image::put_i32(block, line_offset(index) + member_offset, static_cast<std::int32_t>(value));
  return {};
}

}  // namespace

Result<DataBlock> encode_test_spec(const access_specs::AccessSpec& spec) {
  if (spec.lines.size() > kMaxSpecLines) {
    return fail(Error(ErrorCode::invalid_argument, "spec '" + spec.name + "' has " +
                                                       std::to_string(spec.lines.size()) + " lines, at most " +
                                                       std::to_string(kMaxSpecLines) + " fit")
                    .in_field("Test_Spec.access"));
  }
  auto block = make_data_block();
  if (auto r = image::put_string(block, kDataUnionOffset + spec_layout::kName, spec_layout::kNameBytes, spec.name,
                                 "Test_Spec.name");
      !r) {
    return fail(r.error());
  }
  image::put_i32(block, kDataUnionOffset + spec_layout::kDefaultAssignment,
                 static_cast<std::int32_t>(spec.default_assignment));
  for (std::size_t i = 0; i < spec.lines.size(); ++i) {
    const auto& line = spec.lines[i];
    for (const auto& [offset, member, value] :
         {std::tuple{line_layout::kOfSize, "of_size", line.percent_of_size},
          std::tuple{line_layout::kReads, "reads", line.percent_reads},
          std::tuple{line_layout::kRandom, "random", line.percent_random},
          std::tuple{line_layout::kDelay, "delay", line.delay_ms},
          std::tuple{line_layout::kBurst, "burst", line.burst_transactions}}) {
      if (auto r = put_signed(block, i, offset, member, value); !r) return fail(r.error());
    }
    image::put_u32(block, line_offset(i) + line_layout::kAlign, line.align_bytes);
    image::put_u32(block, line_offset(i) + line_layout::kReply, line.reply_bytes);
    image::put_u32(block, line_offset(i) + line_layout::kSize, line.size_bytes);
  }
  if (spec.lines.size() < kMaxSpecLines) image::put_i32(block, line_offset(spec.lines.size()), -1);
  return block;
}

Result<access_specs::AccessSpec> decode_test_spec(std::span<const std::byte> block) {
  if (auto whole = image::check_whole_block(block, "SET_ACCESS"); !whole) return fail(whole.error());
  access_specs::AccessSpec spec;
  auto name = image::get_string(block, kDataUnionOffset + spec_layout::kName, spec_layout::kNameBytes,
                                "Test_Spec.name");
  if (!name) return fail(name.error());
  spec.name = std::move(*name);
  const auto assignment = image::get_i32(block, kDataUnionOffset + spec_layout::kDefaultAssignment);
  if (assignment < 0 || assignment > static_cast<std::int32_t>(access_specs::DefaultAssignment::network)) {
    return fail(Error(ErrorCode::parse_error, std::to_string(assignment) + " is outside 0..3")
                    .in_field("Test_Spec.default_assignment"));
  }
  spec.default_assignment = static_cast<access_specs::DefaultAssignment>(assignment);
  constexpr std::int64_t kAnyCount = std::numeric_limits<std::int32_t>::max();
  for (std::size_t i = 0; i < kMaxSpecLines; ++i) {
    if (image::get_i32(block, line_offset(i) + line_layout::kOfSize) == -1) break;
    access_specs::AccessSpecLine line;
    for (auto [target, offset, member, max] :
         {std::tuple{&line.percent_of_size, line_layout::kOfSize, "of_size", std::int64_t{100}},
          std::tuple{&line.percent_reads, line_layout::kReads, "reads", std::int64_t{100}},
          std::tuple{&line.percent_random, line_layout::kRandom, "random", std::int64_t{100}},
          std::tuple{&line.delay_ms, line_layout::kDelay, "delay", kAnyCount},
          std::tuple{&line.burst_transactions, line_layout::kBurst, "burst", kAnyCount}}) {
      auto value = get_bounded(block, i, offset, member, max);
      if (!value) return fail(value.error());
      *target = *value;
    }
    line.align_bytes = image::get_u32(block, line_offset(i) + line_layout::kAlign);
    line.reply_bytes = image::get_u32(block, line_offset(i) + line_layout::kReply);
    line.size_bytes = image::get_u32(block, line_offset(i) + line_layout::kSize);
    spec.lines.push_back(line);
  }
  return spec;
}

}  // namespace iomark::legacy
