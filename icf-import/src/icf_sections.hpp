// The section parsers of read_icf(). Each starts right after its section header line and
// consumes the section up to and including its END marker. Internal to iomark::icf.
#pragma once

#include <cstdint>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"
#include "icf_reader_context.hpp"

namespace iomark::icf::detail {

[[nodiscard]] Result<access_specs::TestSetup> read_test_setup(ReaderContext& cx);
[[nodiscard]] Result<access_specs::ResultsDisplay> read_results_display(ReaderContext& cx);
[[nodiscard]] Result<std::vector<access_specs::AccessSpec>> read_access_specs(ReaderContext& cx);

// Where a worker names an access spec, so that names can be checked once every section is read.
struct SpecReference {
  std::uint64_t line{};
  std::size_t manager{};
  std::size_t worker{};
  std::size_t index{};
};

struct ManagerList {
  std::vector<access_specs::Manager> managers;
  std::vector<SpecReference> spec_references;
};

[[nodiscard]] Result<ManagerList> read_manager_list(ReaderContext& cx);

}  // namespace iomark::icf::detail
