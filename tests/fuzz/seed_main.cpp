// fuzz_seeds TARGET DIR: writes the generated seeds of one fuzz target into DIR, one file
// each (tests/fuzz/run builds a fresh corpus from them).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "fuzz_support.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: fuzz_seeds TARGET DIR\n";
    return 2;
  }
  const std::filesystem::path dir(argv[2]);
  std::filesystem::create_directories(dir);
  for (const auto& seed : iomark::fuzz::generated_seeds(argv[1])) {
    std::ofstream out(dir / ("seed-" + seed.name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(seed.bytes.data()), static_cast<std::streamsize>(seed.bytes.size()));
    if (!out) {
      std::cerr << "fuzz_seeds: cannot write " << (dir / seed.name).string() << '\n';
      return 1;
    }
  }
  return 0;
}
