// The results.csv reader (results/csv_reader.hpp) on arbitrary text: the series it holds or a
// named error with the line, never a crash, a hang or unbounded memory.
#include <string_view>

#include "fuzz_support.hpp"
#include "iomark/results/csv_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace iomark;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto series = results::read_results_csv(text, "fuzz.csv");
  if (!series) {
    fuzz::require(series.error().location().line >= 1, "a CSV error names its line: " + series.error().describe());
    return 0;
  }
  for (const auto& one : *series) {
    for (const auto& run : one.runs) {
      fuzz::require(!run.spec_block || *run.spec_block < one.spec_blocks.size(), "a run's spec block exists");
      for (const auto& row : run.rows) fuzz::require(row.line > run.line, "a row comes after its results line");
    }
  }
  return 0;
}
