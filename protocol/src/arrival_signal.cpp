#include "iomark/protocol/arrival_signal.hpp"

#include <utility>

namespace iomark::protocol {

void ArrivalSignal::notify(std::size_t source) {
  {
    std::lock_guard lock(mutex_);
    if (source >= marked_.size()) marked_.resize(source + 1, false);
    if (marked_[source]) return;
    marked_[source] = true;
    ready_.push_back(source);
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

std::vector<std::size_t> ArrivalSignal::wait_until(Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline, [this] { return !ready_.empty() || interrupted_; });
  interrupted_ = false;
  for (const auto source : ready_) marked_[source] = false;
  return std::exchange(ready_, {});
}

}  // namespace iomark::protocol
