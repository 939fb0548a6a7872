#include "iomark/app_runtime/stop_signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <spdlog/spdlog.h>

#include "iomark/common/exit_code.hpp"

namespace iomark::app_runtime {

namespace {

// coreutils' timeout sends its signal to the program and then to the program's process group,
// so one stop arrives twice within microseconds: a repeat this soon is the same request.
constexpr auto kSameRequest = std::chrono::milliseconds(500);

}  // namespace

StopSignals::StopSignals() {
  // A shell starts background jobs with SIGINT ignored, and an ignored signal never reaches
  // sigwait(): the default disposition makes sure it is taken below.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
  waiter_ = std::thread([this] { wait_for_signals(); });
}

StopSignals::~StopSignals() {
  done_ = true;
  // Wakes the waiter: the signal is blocked everywhere, so only sigwait() takes it.
  ::kill(::getpid(), SIGTERM);
  waiter_.join();
  pthread_sigmask(SIG_UNBLOCK, &signals_, nullptr);
}

std::stop_token StopSignals::request_stop_on(Observer observer) {
  observer_ = std::move(observer);
  stopping_wanted_ = true;
  return source_.get_token();
}

void StopSignals::wait_for_signals() {
  std::chrono::steady_clock::time_point first_at;
  for (;;) {
    int received = 0;
    if (sigwait(&signals_, &received) != 0) continue;
    if (done_) return;
    if (first_signal_ != 0 && std::chrono::steady_clock::now() - first_at < kSameRequest) continue;
    if (!stopping_wanted_ || first_signal_ != 0) {
      // Nothing to finish, or asked twice: leave now. Flushed first, so the log says why.
      spdlog::warn("SIG{}: exiting at once", sigabbrev_np(received));
      spdlog::default_logger()->flush();
      std::_Exit(exit_code_for_signal(received));
    }
    first_signal_ = received;
    first_at = std::chrono::steady_clock::now();
    if (observer_) observer_(received);
    source_.request_stop();
  }
}

}  // namespace iomark::app_runtime
