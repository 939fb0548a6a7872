#include "iomark/protocol/arrival_signal.hpp"

#include <algorithm>
#include <utility>

namespace iomark::protocol {

void ArrivalSignal::notify(std::size_t source) {
  {
    std::lock_guard lock(mutex_);
    if (source >= marked_.size()) marked_.resize(source + 1, false);
    if (marked_[source]) return;
    marked_[source] = true;
    ready_.push_back(source);
    if (gathering_) return;
  }
  changed_.notify_one();
}

void ArrivalSignal::interrupt() {
  {
    std::lock_guard lock(mutex_);
    interrupted_ = true;
  }
  changed_.notify_one();
}

std::vector<std::size_t> ArrivalSignal::wait_until(Clock::time_point deadline, Clock::duration gather) {
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline, [this] { return !ready_.empty() || interrupted_; });
  if (gather > Clock::duration::zero() && !ready_.empty() && !interrupted_) {
    gathering_ = true;
    changed_.wait_until(lock, std::min(deadline, Clock::now() + gather), [this] { return interrupted_; });
    gathering_ = false;
  }
  interrupted_ = false;
  for (const auto source : ready_) marked_[source] = false;
  return std::exchange(ready_, {});
}

}  // namespace iomark::protocol
