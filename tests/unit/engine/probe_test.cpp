#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "iomark/engine/engines.hpp"

namespace iomark::engine {
namespace {

TEST(ProbeEngines, ReportsEveryEngineInProbeOrder) {
  const auto probes = probe_engines();
  ASSERT_EQ(probes.size(), kProbeOrder.size());
  for (std::size_t i = 0; i < probes.size(); ++i) {
    EXPECT_EQ(probes[i].kind, kProbeOrder[i]);
    if (probes[i].available) {
      EXPECT_TRUE(probes[i].reason.empty()) << probes[i].reason;
    } else {
      EXPECT_FALSE(probes[i].reason.empty()) << to_string(probes[i].kind) << " without a reason";
    }
  }
  // Plain pread/pwrite work on every Linux, so the fallbacks are always there.
  EXPECT_TRUE(probes[2].available) << probes[2].reason;
  EXPECT_TRUE(probes[3].available) << probes[3].reason;
}

TEST(ProbeEngines, AgreesWithSettingEachEngineUpDirectly) {
  const auto probes = probe_engines();
  EngineOptions options;
  options.queue_depth = 4;
  for (const EngineProbe& probe : probes) {
    const auto engine = make_prepared_engine(probe.kind, options);
    EXPECT_EQ(engine.has_value(), probe.available) << to_string(probe.kind);
  }
}

TEST(MakeBestEngine, PicksTheFirstAvailableEngineInProbeOrder) {
  EngineOptions options;
  options.queue_depth = 16;
  auto selection = make_best_engine(options);
  ASSERT_TRUE(selection) << selection.error().describe();
  ASSERT_NE(selection->engine, nullptr);
  ASSERT_FALSE(selection->tried.empty());
  EXPECT_EQ(selection->tried.back().kind, selection->engine->kind());
  EXPECT_TRUE(selection->tried.back().available);
  for (std::size_t i = 0; i + 1 < selection->tried.size(); ++i) {
    EXPECT_FALSE(selection->tried[i].available);
    EXPECT_FALSE(selection->tried[i].reason.empty());
  }
  for (std::size_t i = 0; i < selection->tried.size(); ++i) {
    EXPECT_EQ(selection->tried[i].kind, kProbeOrder[i]);
  }
  EXPECT_EQ(selection->engine->queue_depth(), 16U) << "prepared with the caller's options";

  // The probe must agree: everything before the chosen one is unavailable.
  const auto probes = probe_engines();
  for (const EngineProbe& probe : probes) {
    if (probe.kind == selection->engine->kind()) break;
    EXPECT_FALSE(probe.available) << to_string(probe.kind) << " was available but skipped";
  }
}

TEST(MakeBestEngine, InvalidOptionsAreReportedOnceNotAsNoEngine) {
  EngineOptions options;
  options.queue_depth = 0;
  const auto selection = make_best_engine(options);
  ASSERT_FALSE(selection);
  EXPECT_EQ(selection.error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(selection.error().field(), "queue_depth");
}

TEST(MakeEngine, GivesAnUnpreparedEngineOfEveryKind) {
  for (const EngineKind kind : kAllEngineKinds) {
    const auto engine = make_engine(kind);
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(engine->kind(), kind);
    EXPECT_EQ(engine->name(), to_string(kind));
    EXPECT_EQ(engine->queue_depth(), 0U) << "not prepared yet";
  }
}

// Runs make_best_engine in a child process whose seccomp filter fails the given syscalls
// with EPERM, as a container runtime does, and reports what was chosen.
struct ChildVerdict {
  bool ran{};
  EngineKind chosen{EngineKind::null};
  bool reasons_recorded{};
};

sock_filter statement(std::uint32_t code, std::uint32_t value) {
  return {static_cast<std::uint16_t>(code), 0, 0, value};
}

sock_filter jump_if_equal(std::uint32_t value, std::uint8_t if_true, std::uint8_t if_false) {
  return {static_cast<std::uint16_t>(BPF_JMP | BPF_JEQ | BPF_K), if_true, if_false, value};
}

ChildVerdict best_engine_with_syscalls_denied(std::initializer_list<long> denied) {
  int report[2];
  if (::pipe(report) != 0) return {};
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(report[0]);
    std::vector<sock_filter> program;
    program.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
    for (const long number : denied) {
      program.push_back(jump_if_equal(static_cast<std::uint32_t>(number), 0, 1));
      program.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)));
    }
    program.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    const sock_fprog filter{static_cast<unsigned short>(program.size()), program.data()};
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0) {
      ::_exit(2);
    }
    EngineOptions options;
    options.queue_depth = 8;
    const auto selection = make_best_engine(options);
    if (!selection) ::_exit(3);
    bool reasons = true;
    for (std::size_t i = 0; i + 1 < selection->tried.size(); ++i) {
      reasons = reasons &&
                selection->tried[i].reason.find("Operation not permitted") != std::string::npos;
    }
    const unsigned char verdict[2] = {static_cast<unsigned char>(selection->engine->kind()),
                                      static_cast<unsigned char>(reasons)};
    const bool written = ::write(report[1], verdict, 2) == 2;
    ::_exit(written ? 0 : 4);
  }
  ::close(report[1]);
  unsigned char verdict[2] = {};
  const bool got = ::read(report[0], verdict, 2) == 2;
  ::close(report[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
  return {true, static_cast<EngineKind>(verdict[0]), verdict[1] != 0};
}

TEST(MakeBestEngine, FallsThroughWhenSeccompForbidsIoUring) {
  if (!probe_engines()[1].available) GTEST_SKIP() << "linux-aio is not available here";
  const ChildVerdict verdict = best_engine_with_syscalls_denied({__NR_io_uring_setup});
  ASSERT_TRUE(verdict.ran) << "the sandboxed child failed";
  EXPECT_EQ(verdict.chosen, EngineKind::linux_aio);
  EXPECT_TRUE(verdict.reasons_recorded) << "io_uring's EPERM was not recorded as the reason";
}

TEST(MakeBestEngine, FallsThroughToThreadpoolWhenNeitherKernelInterfaceIsAllowed) {
  const ChildVerdict verdict =
      best_engine_with_syscalls_denied({__NR_io_uring_setup, __NR_io_setup});
  ASSERT_TRUE(verdict.ran) << "the sandboxed child failed";
  EXPECT_EQ(verdict.chosen, EngineKind::threadpool);
  EXPECT_TRUE(verdict.reasons_recorded);
}

}  // namespace
}  // namespace iomark::engine
