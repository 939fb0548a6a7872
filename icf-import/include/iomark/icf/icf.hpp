// Reading and writing IOmeter configuration files (.icf), docs/iometer-reference.md#icf.
//
// Text in, model out: these functions never open files, sockets or devices. The file name
// is only used in error messages ("plan.icf:42: ...").
//
// Threading: both functions are pure and reentrant. Cost: linear in the size of the text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::icf {

// Something the reader accepted that IOmeter 1.1.0 would not, or ignored (an unknown key,
// a blank line, a pre-1.1.0 key 1.1.0 rejects, a dropped placeholder line ...). `line` is
// 1-based. docs/icf-compatibility.md lists every case. At most 1000 are kept; then one
// last warning says that the rest were dropped.
struct Warning {
  std::uint64_t line{};
  std::string message;
  friend bool operator==(const Warning&, const Warning&) = default;
};

struct IcfImport {
  access_specs::TestPlan plan;
  std::string version;            // as written after "Version ", e.g. "2006.07.27", "1.1.0 DEBUG"
  std::uint64_t version_number{};  // IOmeter's comparable number (20060727, 10000100000); "3.26.97" is 19980105
  std::vector<Warning> warnings;
};

// Reads every dialect IOmeter ever wrote (1998.x .. 1.1.0): LF, CRLF or CR line ends, both
// access-spec formats, all historic key variants, sections in any order (a missing section
// stays nullopt in the plan). The plan is not validated here; call access_specs::validate().
//
// Errors (never exceptions) carry the file name, the 1-based line and a field(): the key's
// caption without its apostrophe ("Run Time", "Ramp Up Time (s)"), the part of a composite
// value ("test connection rate", "fixed seed value", "% reads"), "Version" for the first
// line, or the missing end marker ("END test setup", "End worker"). Codes: parse_error for
// text that breaks the grammar, invalid_argument for a value out of its range (> 32 or 64
// bits, a percentage > 100, an unknown literal), validation_error for `% of size` not
// adding up to 100.
[[nodiscard]] Result<IcfImport> read_icf(std::string_view text, std::string_view file_name = {});

// Writes the plan exactly as IOmeter 1.1.0 saves it (LF line ends; `Version 1.1.0 ` first
// and last). Only the sections present in the plan are written; a worker's assigned-specs
// and targets blocks only when they are present (an empty list writes an empty block).
//
// read_icf(write_icf(plan)).plan == plan for every plan that access_specs::validate()
// accepts, whose text values have no leading or trailing whitespace and no line breaks (a
// line break is written as a space), whose workers spell spec names as the specs do and whose
// bar charts use IOmeter's statistic captions as spelled (the reader normalises both). Settings
// that IOmeter keeps only for another worker type (disk size on a network worker, a local interface
// on a disk worker, VI outstanding I/Os on a non-VI worker) are written when set, and read back
// with a warning.
[[nodiscard]] std::string write_icf(const access_specs::TestPlan& plan);

}  // namespace iomark::icf
