#include "iomark/legacy/test_spec.hpp"

#include <algorithm>
#include <limits>

#include "iomark/access_specs/field_descriptors.hpp"

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

// A signed wire field that must hold min..max.
Result<std::uint32_t> get_bounded(std::span<const std::byte> block, std::size_t index, std::size_t member_offset,
                                  std::string_view member, std::int64_t max, std::int64_t min = 0) {
  const auto value = image::get_i32(block, line_offset(index) + member_offset);
  if (value < min || value > max) {
    return fail(Error(ErrorCode::parse_error,
                      std::to_string(value) + " is outside " + std::to_string(min) + ".." + std::to_string(max))
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
  // Dynamo never reads default_assignment (the GUI's own setting, any number an .icf held).
  const auto assignment = image::get_i32(block, kDataUnionOffset + spec_layout::kDefaultAssignment);
  if (assignment >= 0 && assignment <= static_cast<std::int32_t>(access_specs::DefaultAssignment::network)) {
    spec.default_assignment = static_cast<access_specs::DefaultAssignment>(assignment);
  }
  // Dynamo's Access::Initialize: lines give their % of size to the 100 slots of its access
  // grid in order, until the grid is full; a line of 0 % gets no slot and is not read, and
  // nothing after the line that fills the grid is read (IOmeter 1.1.0 ends the list with -1,
  // other GUIs with a zero-filled line or garbage). An -1 in the first line is the idle spec.
  // Where Dynamo would read on past the list (an end before 100 %), the block is refused.
  constexpr std::uint32_t kFull = 100;
  std::uint32_t total = 0;
  for (std::size_t i = 0; i < kMaxSpecLines && total < kFull; ++i) {
    const auto of_size = image::get_i32(block, line_offset(i) + line_layout::kOfSize);
    if (of_size == -1 && i == 0) return spec;
    if (of_size == -1) {
      return fail(Error(ErrorCode::parse_error, "-1 ends the list when its lines make " + std::to_string(total) +
                                                    " %, not 100 %")
                      .in_field(line_field(i, "of_size")));
    }
    auto share = get_bounded(block, i, line_layout::kOfSize, "of_size", kFull);
    if (!share) return fail(share.error());
    if (*share == 0) continue;
    access_specs::AccessSpecLine line;
    line.percent_of_size = std::min(*share, kFull - total);  // Dynamo's grid ends at 100 slots
    const auto range = [](access_specs::FieldId id) {
      const auto& d = access_specs::field_descriptor(id);
      return std::pair{static_cast<std::int64_t>(d.min_value), static_cast<std::int64_t>(d.max_value)};
    };
    using access_specs::FieldId;
    for (auto [target, offset, member, id] :
         {std::tuple{&line.percent_reads, line_layout::kReads, "reads", FieldId::percent_reads},
          std::tuple{&line.percent_random, line_layout::kRandom, "random", FieldId::percent_random},
          std::tuple{&line.delay_ms, line_layout::kDelay, "delay", FieldId::delay},
          std::tuple{&line.burst_transactions, line_layout::kBurst, "burst", FieldId::burst}}) {
      const auto [min, max] = range(id);
      auto value = get_bounded(block, i, offset, member, max, min);
      if (!value) return fail(value.error());
      *target = *value;
    }
    for (auto [target, offset, member, id] :
         {std::tuple{&line.align_bytes, line_layout::kAlign, "align", FieldId::align},
          std::tuple{&line.reply_bytes, line_layout::kReply, "reply", FieldId::reply},
          std::tuple{&line.size_bytes, line_layout::kSize, "size", FieldId::size}}) {
      const auto [min, max] = range(id);
      const auto value = image::get_u32(block, line_offset(i) + offset);
      if (value < min || value > max) {
        return fail(Error(ErrorCode::parse_error, std::to_string(value) + " is outside " + std::to_string(min) +
                                                      ".." + std::to_string(max))
                        .in_field(line_field(i, member)));
      }
      *target = value;
    }
    spec.lines.push_back(line);
    total += line.percent_of_size;
  }
  if (total < kFull) {
    return fail(Error(ErrorCode::parse_error, "the 100 lines make " + std::to_string(total) + " %, not 100 %")
                    .in_field("Test_Spec.access"));
  }
  return spec;
}

}  // namespace iomark::legacy
