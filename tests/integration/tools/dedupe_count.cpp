// dedupe_count FILE UNIT_BYTES: reads FILE (a device or a file) whole, UNIT_BYTES at a time, and
// prints how many units it holds and how many of them are distinct:
//   units 16384 unique 5461 ratio 0.333313
// What a deduplicating array keyed on whole units would keep. Test tool only.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unordered_set>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: dedupe_count FILE UNIT_BYTES\n");
    return 2;
  }
  const auto unit = std::strtoull(argv[2], nullptr, 10);
  std::ifstream in(argv[1], std::ios::binary);
  if (!in || unit == 0) {
    std::fprintf(stderr, "dedupe_count: cannot read %s in units of %s bytes\n", argv[1], argv[2]);
    return 1;
  }
  std::vector<char> buffer(unit);
  // The contents themselves, not hashes of them: no collision can make two units one.
  std::unordered_set<std::string> seen;
  unsigned long long units = 0;
  while (in.read(buffer.data(), static_cast<std::streamsize>(unit)) || in.gcount() > 0) {
    seen.emplace(buffer.data(), static_cast<std::size_t>(in.gcount()));
    ++units;
  }
  std::printf("units %llu unique %zu ratio %f\n", units, seen.size(),
              units == 0 ? 0.0 : static_cast<double>(seen.size()) / static_cast<double>(units));
  return 0;
}
