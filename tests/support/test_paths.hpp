// Where the tests find tests/data and the IOmeter corpus: relative to the test executable
// (iomark_test_paths() in cmake/iomark_helpers.cmake compiles in the path from the
// executable's folder), so no compile line names the checkout and a copy of the repository
// elsewhere (CI's stand-alone step) reuses every object ccache holds.
#pragma once

#include <filesystem>

namespace iomark::test_support {

// `relative` resolved against the folder of the running executable.
inline std::filesystem::path beside_executable(const char* relative) {
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  return (executable.parent_path() / relative).lexically_normal();
}

// The repository's tests/data.
inline const std::filesystem::path& test_data_dir() {
  static const std::filesystem::path dir = beside_executable(IOMARK_TEST_DATA_FROM_EXE);
  return dir;
}

// The real-world corpus (IOMARK_ICF_CORPUS_DIR, by default ../shared/icf-corpus beside the
// checkout); it may not exist (icf_corpus.hpp).
inline const std::filesystem::path& icf_corpus_dir() {
  static const std::filesystem::path dir = beside_executable(IOMARK_ICF_CORPUS_FROM_EXE);
  return dir;
}

}  // namespace iomark::test_support
