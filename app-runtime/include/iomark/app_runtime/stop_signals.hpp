// The one way iomark programs stop: SIGINT and SIGTERM are blocked in every thread and
// taken by one waiting thread with sigwait(), so no code runs in a signal handler and any
// thread may be busy when the signal comes.
#pragma once

#include <atomic>
#include <csignal>
#include <functional>
#include <stop_token>
#include <thread>

namespace iomark::app_runtime {

class StopSignals {
 public:
  // Told about the first signal once a stop was asked for, on the waiting thread.
  using Observer = std::function<void(int signal_number)>;

  // Blocks SIGINT and SIGTERM in this thread and in every thread it starts from now on:
  // construct it first in main(), before any other thread exists. Until request_stop_on()
  // a signal ends the process at once with exit_code_for_signal(), as if not caught.
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // From now on the first signal requests a stop on the returned token (after telling
  // `observer`); a second one, 500 ms or more later, ends the process at once (one sooner is
  // the same request delivered twice, as `timeout` does). Call once, before the work it ends.
  [[nodiscard]] std::stop_token request_stop_on(Observer observer = {});

  // The first signal taken once stops were requested; 0 while none came.
  [[nodiscard]] int first_signal() const noexcept { return first_signal_.load(); }

 private:
  void wait_for_signals();

  sigset_t signals_{};
  std::stop_source source_;
  Observer observer_;
  std::atomic<bool> stopping_wanted_{false};
  std::atomic<int> first_signal_{0};
  std::atomic<bool> done_{false};
  std::thread waiter_;
};

}  // namespace iomark::app_runtime
