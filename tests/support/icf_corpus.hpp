// The real-world IOmeter files of ../shared/icf-corpus (CMake IOMARK_ICF_CORPUS_DIR) live outside
// the repository and are read in place, never copied in. A clone on its own has no such
// folder, so the tests of those files skip, naming the folder; the project's own fixtures
// under tests/data cover the same dialects either way.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_paths.hpp"

namespace iomark::test_support {

inline bool icf_corpus_present() { return std::filesystem::is_directory(icf_corpus_dir()); }

inline std::string icf_corpus_missing() {
  return "the IOmeter corpus folder " + icf_corpus_dir().string() +
         " does not exist (a checkout without ../shared/icf-corpus beside it)";
}

// A test fixture for suites that read only corpus files: every test skips without it.
class IcfCorpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!icf_corpus_present()) GTEST_SKIP() << icf_corpus_missing();
  }
};

}  // namespace iomark::test_support

// For single tests in a mixed suite; only in a function returning void (a test body).
#define IOMARK_SKIP_WITHOUT_ICF_CORPUS()                                                         \
  do {                                                                                           \
    if (!::iomark::test_support::icf_corpus_present()) GTEST_SKIP() << ::iomark::test_support::icf_corpus_missing(); \
  } while (false)
