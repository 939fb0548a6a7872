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

// One line of the 'IOMARK EXTENSIONS section about a worker: 1-based manager and worker
// positions in the manager list, and what it sets ('Data reduction or 'Rate IOPS).
struct WorkerExtension {
  Line line;
  std::uint32_t manager{};
  std::uint32_t worker{};
  std::optional<access_specs::DataReduction> reduction{};
  std::optional<double> rate_iops{};
};

[[nodiscard]] Result<std::vector<WorkerExtension>> read_iomark_extensions(ReaderContext& cx);
// Applied once every section is read (sections come in any order). Errors: a position the
// manager list does not have.
[[nodiscard]] Result<void> apply_iomark_extensions(const ReaderContext& cx,
                                                   const std::vector<WorkerExtension>& extensions,
                                                   access_specs::TestPlan& plan);

}  // namespace iomark::icf::detail
