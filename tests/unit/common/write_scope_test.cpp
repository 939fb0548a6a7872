#include "iomark/common/write_scope.hpp"

#include <gtest/gtest.h>

namespace iomark {
namespace {

TEST(WriteScope, CoversWholeComponentsOnly) {
  EXPECT_TRUE(path_within("/data", "/data"));
  EXPECT_TRUE(path_within("/data", "/data/x/y"));
  EXPECT_TRUE(path_within("/", "/anything"));
  EXPECT_FALSE(path_within("/data", "/data2"));
  EXPECT_FALSE(path_within("/data", "/dat"));
  EXPECT_FALSE(path_within("/data/x", "/data"));
  EXPECT_FALSE(path_within("", "/data"));
  EXPECT_TRUE(path_within_any({"/a", "/srv/bench/a.dat"}, "/srv/bench/a.dat"));
  EXPECT_FALSE(path_within_any({"/a", "/srv/bench/a.dat"}, "/"));
  EXPECT_FALSE(path_within_any({}, "/"));
}

TEST(WriteScope, RefusalNamesTheAgentThePathAndTheList) {
  const auto text = write_scope_refusal("host1", "/", {"/srv/bench/a.dat", "/scratch"});
  EXPECT_NE(text.find("agent host1 refuses /:"), std::string::npos) << text;
  EXPECT_NE(text.find("(/srv/bench/a.dat, /scratch)"), std::string::npos) << text;
  EXPECT_NE(write_scope_refusal("h", "/x", {}).find("without --allow"), std::string::npos);
}

}  // namespace
}  // namespace iomark
