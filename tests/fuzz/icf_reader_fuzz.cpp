// The .icf reader (icf-import) on arbitrary text: a plan or a named error, never a crash, a
// hang or unbounded memory. A plan it reads and access_specs::validate() accepts must also
// survive write_icf() and read_icf() again (icf.hpp's round-trip promise, within its terms).
#include <string_view>

#include "fuzz_support.hpp"
#include "iomark/icf/icf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace iomark;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto imported = icf::read_icf(text, "fuzz.icf");
  if (!imported) return 0;
  fuzz::require(imported->warnings.size() <= 1001, "at most 1000 warnings and one saying the rest were dropped");
  const auto written = icf::write_icf(imported->plan);
  const auto again = icf::read_icf(written, "written.icf");
  fuzz::require(again.has_value(), "what write_icf() writes reads back: " +
                                       (again ? std::string() : again.error().describe()));
  return 0;
}
