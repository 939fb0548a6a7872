// fuzz_replay_<target> DIR...: runs one fuzz target, built without libFuzzer, on every file
// below each DIR (the kept regression inputs, seed files) and on the target's generated
// seeds, so CI checks them with any compiler. An input that breaks the target aborts it.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "fuzz_support.hpp"

namespace {

void run(const std::vector<std::byte>& bytes) {
  // An empty vector may have no storage; libFuzzer never passes a null pointer.
  static const std::uint8_t kNothing = 0;
  const auto* data = bytes.empty() ? &kNothing : reinterpret_cast<const std::uint8_t*>(bytes.data());
  (void)LLVMFuzzerTestOneInput(data, bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path dir(argv[i]);
    if (!std::filesystem::is_directory(dir)) {
      std::cerr << "fuzz_replay: " << dir.string() << " is not a directory\n";
      return 2;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::vector<char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::vector<std::byte> bytes(text.size());
      std::transform(text.begin(), text.end(), bytes.begin(), [](char c) { return static_cast<std::byte>(c); });
      std::cerr << "fuzz_replay: " << file.string() << '\n';
      run(bytes);
      ++inputs;
    }
  }
  for (const auto& seed : iomark::fuzz::generated_seeds(IOMARK_FUZZ_TARGET)) {
    std::cerr << "fuzz_replay: seed " << seed.name << '\n';
    run(seed.bytes);
    ++inputs;
  }
  std::cout << "fuzz_replay " << IOMARK_FUZZ_TARGET << ": " << inputs << " inputs passed\n";
  return 0;
}
