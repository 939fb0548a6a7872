#include "iomark/network/connection_schedule.hpp"

namespace iomark::network {

ConnectionStep ConnectionSchedule::next() const noexcept {
  if (!open_) return ConnectionStep::open;
  if (reconnects_ && done_in_connection_ >= transactions_per_connection_) return ConnectionStep::close;
  return ConnectionStep::transfer;
}

void ConnectionSchedule::opened() noexcept {
  open_ = true;
  done_in_connection_ = 0;
}

void ConnectionSchedule::transferred() noexcept { ++done_in_connection_; }

void ConnectionSchedule::closed() noexcept { open_ = false; }

}  // namespace iomark::network
