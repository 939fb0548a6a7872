// The iomark JSON results reader (results/results_json.hpp) on arbitrary text: a series or a
// named error, never a crash or an escaping exception (a number no double holds, -1e400,
// once aborted the process). What it reads, written again, reads back.
#include <cmath>
#include <string_view>

#include "fuzz_support.hpp"
#include "iomark/results/results_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace iomark;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto series = results::read_results_json(text, "fuzz.json");
  if (!series) {
    fuzz::require(series.error().location().file == "fuzz.json", "a JSON error names its file");
    return 0;
  }
  const auto again = results::read_results_json(results::write_results_json(*series), "again.json");
  fuzz::require(again.has_value(), "what the reader took, written again, reads back: " +
                                       (again ? std::string() : again.error().describe()));
  return 0;
}
