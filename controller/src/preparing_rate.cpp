#include "iomark/controller/preparing_rate.hpp"

namespace iomark::controller {

std::optional<PreparingRate::Estimate> PreparingRate::update(const PrepareFigures& figures,
                                                             std::chrono::steady_clock::time_point now) {
  if (figures.path != path_ || figures.bytes_done < from_bytes_) {
    path_ = figures.path;
    since_ = now;
    from_bytes_ = figures.bytes_done;
  }
  const double seconds = std::chrono::duration<double>(now - since_).count();
  const auto written = static_cast<double>(figures.bytes_done - from_bytes_);
  if (seconds < 1.0 || written <= 0) return std::nullopt;
  const double bytes_per_s = written / seconds;
  return Estimate{.bytes_per_s = bytes_per_s,
                  .remaining_s = static_cast<double>(figures.bytes_total - figures.bytes_done) / bytes_per_s};
}

}  // namespace iomark::controller
