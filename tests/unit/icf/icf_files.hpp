// Reading .icf files for the tests: tests/data/icf and the corpus alike.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "iomark/icf/icf.hpp"

namespace iomark::icf::test_support {

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Loaded {
  std::string text;
  IcfImport imported;
};

// Reads and imports `dir`/`name` (the file name is what errors name); a missing file or a
// failed import fails the test.
inline Loaded load(const std::filesystem::path& dir, std::string_view name) {
  const std::filesystem::path path = dir / std::string(name);
  EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path << " is missing";
  Loaded loaded{slurp(path), {}};
  auto result = read_icf(loaded.text, name);
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().describe());
  if (result) loaded.imported = std::move(*result);
  return loaded;
}

inline const access_specs::AccessSpec* spec_named(const IcfImport& imported, std::string_view name) {
  if (!imported.plan.access_specs) return nullptr;
  for (const auto& spec : *imported.plan.access_specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

inline bool has_warning(const IcfImport& imported, std::uint64_t line, std::string_view fragment) {
  return std::any_of(imported.warnings.begin(), imported.warnings.end(), [&](const Warning& warning) {
    return warning.line == line && warning.message.find(fragment) != std::string::npos;
  });
}

}  // namespace iomark::icf::test_support
