// Reading and writing IOmeter configuration files (.icf), iometer-spec §1.
//
// Text in, model out: these functions never open files, sockets or devices. The file name
// is only used in error messages ("plan.icf:42: ...").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::icf {

// Something the reader accepted that IOmeter 1.1.0 would not, or ignored.
struct Warning {
  std::uint64_t line{};
  std::string message;
  friend bool operator==(const Warning&, const Warning&) = default;
};

struct IcfImport {
  access_specs::TestPlan plan;
  std::string version;            // as written after "Version ", e.g. "2006.07.27"
  std::uint64_t version_number{};  // IOmeter's comparable number (20060727, 10000100000)
  std::vector<Warning> warnings;
};

// Reads every dialect IOmeter ever wrote (1998.x .. 1.1.0). Errors carry file:line and
// the field concerned.
[[nodiscard]] Result<IcfImport> read_icf(std::string_view text, std::string_view file_name = {});

// Writes the plan exactly as IOmeter 1.1.0 saves it (LF line ends; `Version 1.1.0 ` first
// and last). Only the sections present in the plan are written.
[[nodiscard]] std::string write_icf(const access_specs::TestPlan& plan);

}  // namespace iomark::icf
