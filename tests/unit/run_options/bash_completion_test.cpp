#include "iomark/run_options/bash_completion.hpp"

#include <gtest/gtest.h>

#include "iomark/run_options/run_flags.hpp"

namespace iomark::run_options {
namespace {

TEST(BashCompletion, OffersEveryDeclaredFlagPerSubcommand) {
  CLI::App app{"test", "iomark-test"};
  RunFlags flags;
  ConnectionFlags connection;
  auto* run = app.add_subcommand("run", "run");
  add_run_flags(*run, flags, FrontEnd::controller_run);
  add_connection_flags(*run, connection, Peer::agents);
  add_completion_command(app);
  const auto script = bash_completion(app);

  EXPECT_NE(script.find("complete -F _iomark_test iomark-test"), std::string::npos) << script;
  const auto run_line = script.find("\"run\") choices=\"");
  ASSERT_NE(run_line, std::string::npos) << script;
  const auto line = script.substr(run_line, script.find('\n', run_line) - run_line);
  for (const auto* option : run->get_options()) {
    for (const auto& name : option->get_lnames()) EXPECT_NE(line.find("--" + name), std::string::npos) << name;
  }
  // Files after FILE/PATH flags, engine names after --engine; the hidden command is not offered.
  EXPECT_NE(script.find("--json|"), std::string::npos) << script;
  EXPECT_NE(script.find("--engine) "), std::string::npos) << script;
  EXPECT_NE(script.find("io_uring"), std::string::npos) << script;
  EXPECT_EQ(script.find("completion\""), std::string::npos) << script;
  EXPECT_NE(script.find("\"\") choices=\"--help run\""), std::string::npos) << script;
}

}  // namespace
}  // namespace iomark::run_options
