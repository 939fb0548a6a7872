// One waiter, many connections: a watched connection (Connection::watch) marks its source
// number ready when an envelope arrives for it or it closes, and wakes the waiter. A
// controller driving a thousand agents then sleeps until one of them has something for it,
// instead of looking at every connection many times a second.
//
// Thread-safety: notify() and interrupt() may be called from any thread (the connections'
// I/O threads) while one thread waits.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace iomark::protocol {

class ArrivalSignal {
 public:
  using Clock = std::chrono::steady_clock;

  // `source` has something to receive (or closed). Cheap; never blocks on the waiter.
  void notify(std::size_t source);
  // Ends the current (or next) wait at once, with whatever is ready: a stop request.
  void interrupt();
  // The sources that became ready since the last call, each once, in the order they first
  // did; waits for one until `deadline` or interrupt(), and returns none when it passes.
  // With a `gather` time, once one is ready it waits that much longer (never past the
  // deadline, ended by interrupt()) without being woken by the others, and returns them
  // all: a fleet's samples, which come in over a few milliseconds each second, then cost the
  // waiter one wake-up instead of one each (docs/performance.md#controller-taking-in-samples).
  [[nodiscard]] std::vector<std::size_t> wait_until(Clock::time_point deadline, Clock::duration gather = {});

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::size_t> ready_;
  std::vector<bool> marked_;  // by source: in ready_ already
  bool interrupted_{false};
  bool gathering_{false};  // notify() need not wake the waiter
};

}  // namespace iomark::protocol
