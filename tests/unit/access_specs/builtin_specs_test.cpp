#include "iomark/access_specs/builtin_specs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <string>

#include "icf_corpus.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/ascii.hpp"

namespace iomark::access_specs {
namespace {

std::vector<std::string> names_of(std::span<const AccessSpec> specs) {
  std::vector<std::string> names;
  for (const AccessSpec& spec : specs) names.push_back(spec.name);
  return names;
}

std::uint32_t total_of_size(const AccessSpec& spec) {
  return std::accumulate(
      spec.lines.begin(), spec.lines.end(), 0U,
      [](std::uint32_t sum, const AccessSpecLine& line) { return sum + line.percent_of_size; });
}

std::string lower(std::string_view text) { return ascii::to_lower(text); }

// Plans, scripts and `iomark specs show` refer to these names: changing one breaks users.
TEST(BuiltinSpecs, StoragePatternNamesAreStable) {
  EXPECT_EQ(names_of(storage_pattern_specs()), (std::vector<std::string>{"Database",
                                                                         "Fileserver",
                                                                         "Webserver",
                                                                         "Workstation",
                                                                         "OLTP",
                                                                         "VM 60% read",
                                                                         "VM 40% read",
                                                                         "Backup",
                                                                         "4K random read",
                                                                         "4K random write",
                                                                         "4K sequential read",
                                                                         "4K sequential write",
                                                                         "8K random read",
                                                                         "8K random write",
                                                                         "8K sequential read",
                                                                         "8K sequential write",
                                                                         "64K random read",
                                                                         "64K random write",
                                                                         "64K sequential read",
                                                                         "64K sequential write",
                                                                         "1M random read",
                                                                         "1M random write",
                                                                         "1M sequential read",
                                                                         "1M sequential write"}));
}

TEST(BuiltinSpecs, IometerDefaultNamesFollowThe110List) {
  EXPECT_EQ(names_of(iometer_default_specs()),
            (std::vector<std::string>{"Default",
                                      "512 B; 100% Read; 0% random",
                                      "512 B; 75% Read; 0% random",
                                      "512 B; 50% Read; 0% random",
                                      "512 B; 25% Read; 0% random",
                                      "512 B; 0% Read; 0% random",
                                      "4 KiB; 100% Read; 0% random",
                                      "4 KiB; 75% Read; 0% random",
                                      "4 KiB; 50% Read; 0% random",
                                      "4 KiB; 25% Read; 0% random",
                                      "4 KiB; 0% Read; 0% random",
                                      "4 KiB aligned; 100% Read; 100% random",
                                      "4 KiB aligned; 50% Read; 100% random",
                                      "4 KiB aligned; 0% Read; 100% random",
                                      "16 KiB; 100% Read; 0% random",
                                      "16 KiB; 75% Read; 0% random",
                                      "16 KiB; 50% Read; 0% random",
                                      "16 KiB; 25% Read; 0% random",
                                      "16 KiB; 0% Read; 0% random",
                                      "32 KiB; 100% Read; 0% random",
                                      "32 KiB; 75% Read; 0% random",
                                      "32 KiB; 50% Read; 0% random",
                                      "32 KiB; 25% Read; 0% random",
                                      "32 KiB; 0% Read; 0% random",
                                      "64 KiB; 100% Read; 0% random",
                                      "64 KiB; 50% Read; 0% random",
                                      "64 KiB; 0% Read; 0% random",
                                      "256 KiB; 100% Read; 0% random",
                                      "256 KiB; 50% Read; 0% random",
                                      "256 KiB; 0% Read; 0% random",
                                      "All in one"}));
}

TEST(BuiltinSpecs, EveryBuiltInIsValidAndFindableIgnoringCase) {
  for (const auto list : {storage_pattern_specs(), iometer_default_specs()}) {
    for (const AccessSpec& spec : list) {
      const auto valid = validate(spec);
      EXPECT_TRUE(valid) << spec.name << ": " << (valid ? "" : valid.error().message());
      EXPECT_EQ(spec.default_assignment, DefaultAssignment::none) << spec.name;
      EXPECT_EQ(find_builtin_spec(spec.name), &spec) << spec.name;
      EXPECT_EQ(find_builtin_spec(lower(spec.name)), &spec) << spec.name;
    }
  }
}

TEST(BuiltinSpecs, NamesAreUniqueAcrossBothLists) {
  std::set<std::string> seen;
  for (const auto list : {storage_pattern_specs(), iometer_default_specs()}) {
    for (const AccessSpec& spec : list) EXPECT_TRUE(seen.insert(lower(spec.name)).second) << spec.name;
  }
  for (const SpecAlias& alias : builtin_spec_aliases()) {
    EXPECT_FALSE(seen.contains(lower(std::string(alias.alias)))) << alias.alias;
  }
}

TEST(BuiltinSpecs, BothListsFormAValidPlan) {
  TestPlan plan;
  plan.access_specs = std::vector<AccessSpec>(iometer_default_specs().begin(), iometer_default_specs().end());
  plan.access_specs->insert(plan.access_specs->end(), storage_pattern_specs().begin(),
                            storage_pattern_specs().end());
  const auto result = validate(plan);
  EXPECT_TRUE(result) << result.error().message();
}

TEST(BuiltinSpecs, OracleIsAnAliasOfOltp) {
  const AccessSpec* oltp = find_builtin_spec("OLTP");
  ASSERT_NE(oltp, nullptr);
  EXPECT_EQ(find_builtin_spec("Oracle"), oltp);
  EXPECT_EQ(find_builtin_spec("ORACLE"), oltp);
  for (const SpecAlias& alias : builtin_spec_aliases()) {
    EXPECT_NE(find_builtin_spec(alias.spec_name), nullptr) << alias.spec_name;
  }
}

TEST(BuiltinSpecs, UnknownNamesAndIdleAreNotFound) {
  EXPECT_EQ(find_builtin_spec("Idle"), nullptr);
  EXPECT_EQ(find_builtin_spec(""), nullptr);
  EXPECT_EQ(find_builtin_spec("Database "), nullptr);
  EXPECT_EQ(find_builtin_spec("4K random"), nullptr);
}

TEST(IometerDefaults, DefaultSpecIsTheClassic2KLineAlignedToItsSize) {
  const AccessSpec* spec = find_builtin_spec("Default");
  ASSERT_NE(spec, nullptr);
  ASSERT_EQ(spec->lines.size(), 1U);
  EXPECT_EQ(spec->lines[0], (AccessSpecLine{2048, 100, 67, 100, 0, 1, 2048, 0}));
}

TEST(IometerDefaults, SingleLineSpecsMatchTheirNames) {
  const AccessSpec* aligned = find_builtin_spec("4 KiB aligned; 50% Read; 100% random");
  ASSERT_NE(aligned, nullptr);
  EXPECT_EQ(aligned->lines, (std::vector<AccessSpecLine>{{4096, 100, 50, 100, 0, 1, 4096, 0}}));
  const AccessSpec* small = find_builtin_spec("512 B; 25% Read; 0% random");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->lines, (std::vector<AccessSpecLine>{{512, 100, 25, 0, 0, 1, 0, 0}}));
  const AccessSpec* large = find_builtin_spec("256 KiB; 0% Read; 0% random");
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(large->lines, (std::vector<AccessSpecLine>{{262144, 100, 0, 0, 0, 1, 0, 0}}));
}

TEST(IometerDefaults, AllInOneHoldsEveryLineWithTheRemainderOnTheFirstLines) {
  const auto specs = iometer_default_specs();
  ASSERT_EQ(specs.size(), 31U);
  const AccessSpec& all = specs.back();
  ASSERT_EQ(all.name, "All in one");
  // Every single-line spec between `Default` and `All in one`, in order.
  ASSERT_EQ(all.lines.size(), 29U);
  EXPECT_EQ(total_of_size(all), 100U);
  for (std::size_t i = 0; i < all.lines.size(); ++i) {
    AccessSpecLine expected = specs[i + 1].lines.at(0);
    expected.percent_of_size = i < 13 ? 4 : 3;  // 100 = 13 x 4 + 16 x 3
    EXPECT_EQ(all.lines[i], expected) << "line " << i + 1;
  }
}

// The list a real IOmeter 1.1.0 GUI wrote into an ICF file (read in place from the shared
// corpus): an independent check of names, values, order and the All-in-one spread.
TEST(IometerDefaults, MatchWhatThe110GuiWrites) {
  IOMARK_SKIP_WITHOUT_ICF_CORPUS();
  const std::filesystem::path file =
      ::iomark::test_support::icf_corpus_dir() /
      "QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__iometer.icf";
  std::ifstream in(file);
  ASSERT_TRUE(in) << "corpus file not available: " << file;

  std::vector<AccessSpec> written;
  bool in_section = false;
  bool expect_name = false;
  std::string text;
  while (std::getline(in, text)) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.starts_with("'ACCESS SPECIFICATIONS")) {
      in_section = true;
    } else if (!in_section) {
      continue;
    } else if (text.starts_with("'END access specifications")) {
      break;
    } else if (text == "'Access specification name,default assignment") {
      expect_name = true;
    } else if (expect_name) {
      ASSERT_TRUE(text.starts_with("\t")) << text;
      const auto comma = text.rfind(',');
      ASSERT_NE(comma, std::string::npos) << text;
      ASSERT_EQ(text.substr(comma + 1), "NONE") << text;
      written.push_back(AccessSpec{text.substr(1, comma - 1), DefaultAssignment::none, {}});
      expect_name = false;
    } else if (text.starts_with("\t")) {
      ASSERT_FALSE(written.empty());
      const auto line = parse_spec_line(text);
      ASSERT_TRUE(line) << text << ": " << line.error().message();
      written.back().lines.push_back(*line);
    }
  }
  const auto ours = iometer_default_specs();
  ASSERT_EQ(written.size(), ours.size());
  for (std::size_t i = 0; i < ours.size(); ++i) EXPECT_EQ(written[i], ours[i]) << ours[i].name;
}

TEST(StoragePatterns, ClassicMixesAreAsPublished) {
  const AccessSpec* database = find_builtin_spec("Database");
  ASSERT_NE(database, nullptr);
  EXPECT_EQ(database->lines, (std::vector<AccessSpecLine>{{8192, 100, 67, 100, 0, 1, 0, 0}}));

  const AccessSpec* fileserver = find_builtin_spec("Fileserver");
  ASSERT_NE(fileserver, nullptr);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> file_mix{
      {512, 10}, {1024, 5}, {2048, 5}, {4096, 60}, {8192, 2}, {16384, 4}, {32768, 4}, {65536, 10}};
  ASSERT_EQ(fileserver->lines.size(), file_mix.size());
  for (std::size_t i = 0; i < file_mix.size(); ++i) {
    EXPECT_EQ(fileserver->lines[i],
              (AccessSpecLine{file_mix[i].first, file_mix[i].second, 80, 100, 0, 1, 0, 0}));
  }

  const AccessSpec* webserver = find_builtin_spec("Webserver");
  ASSERT_NE(webserver, nullptr);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> web_mix{
      {512, 22},  {1024, 15}, {2048, 8},  {4096, 23},  {8192, 15},
      {16384, 2}, {32768, 6}, {65536, 7}, {131072, 1}, {524288, 1}};
  ASSERT_EQ(webserver->lines.size(), web_mix.size());
  for (std::size_t i = 0; i < web_mix.size(); ++i) {
    EXPECT_EQ(webserver->lines[i],
              (AccessSpecLine{web_mix[i].first, web_mix[i].second, 100, 100, 0, 1, 0, 0}));
  }

  const std::vector<std::pair<std::string, AccessSpecLine>> single{
      {"Workstation", {8192, 100, 80, 80, 0, 1, 0, 0}}, {"OLTP", {8192, 100, 30, 100, 0, 1, 0, 0}},
      {"VM 60% read", {4096, 100, 60, 55, 0, 1, 0, 0}}, {"VM 40% read", {4096, 100, 40, 55, 0, 1, 0, 0}},
      {"Backup", {65536, 100, 100, 0, 0, 1, 0, 0}},
  };
  for (const auto& [name, line] : single) {
    const AccessSpec* spec = find_builtin_spec(name);
    ASSERT_NE(spec, nullptr) << name;
    EXPECT_EQ(spec->lines, std::vector<AccessSpecLine>{line}) << name;
  }
}

TEST(StoragePatterns, MicroBenchmarksAlignToTheirSize) {
  const std::vector<std::pair<std::string, std::uint32_t>> sizes{
      {"4K", 4096}, {"8K", 8192}, {"64K", 65536}, {"1M", 1048576}};
  for (const auto& [caption, size] : sizes) {
    const auto line_of = [&](const std::string& suffix) {
      const AccessSpec* spec = find_builtin_spec(caption + suffix);
      EXPECT_NE(spec, nullptr) << caption << suffix;
      return spec == nullptr ? AccessSpecLine{} : spec->lines.at(0);
    };
    EXPECT_EQ(line_of(" random read"), (AccessSpecLine{size, 100, 100, 100, 0, 1, size, 0}));
    EXPECT_EQ(line_of(" random write"), (AccessSpecLine{size, 100, 0, 100, 0, 1, size, 0}));
    EXPECT_EQ(line_of(" sequential read"), (AccessSpecLine{size, 100, 100, 0, 0, 1, size, 0}));
    EXPECT_EQ(line_of(" sequential write"), (AccessSpecLine{size, 100, 0, 0, 0, 1, size, 0}));
  }
}

}  // namespace
}  // namespace iomark::access_specs

namespace iomark::access_specs {
namespace {

TEST(SpecFromNameOrLine, ALineBecomesAValidCustomSpec) {
  const auto spec = spec_from_name_or_line("Database", "4k,100,100,100,0,1,0,0");
  ASSERT_TRUE(spec.has_value()) << spec.error().describe();
  EXPECT_EQ(spec->name, "custom 4096/100/100/100/0/1/0/0");
  EXPECT_TRUE(validate(*spec).has_value());  // the name holds no ICF separator
  EXPECT_EQ(spec->lines.at(0).size_bytes, 4096U);
}

TEST(SpecFromNameOrLine, ANameFindsTheBuiltIn) {
  EXPECT_EQ(spec_from_name_or_line("oracle", "").value().name, "OLTP");
  const auto unknown = spec_from_name_or_line("No Such Spec", "");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().field(), "spec");
  const auto bad_line = spec_from_name_or_line("", "4096,90,0,0,0,1,0,0");  // % of size 90
  ASSERT_FALSE(bad_line.has_value());
  EXPECT_EQ(bad_line.error().field(), "spec line");
}

}  // namespace
}  // namespace iomark::access_specs
