#include "engine_internals.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace iomark::engine::detail {

void CompletionRing::reset(std::size_t capacity) {
  slots_.assign(capacity, IoCompletion{});
  head_ = 0;
  count_ = 0;
}

std::size_t CompletionRing::pop_into(std::span<IoCompletion> out) noexcept {
  const std::size_t n = out.size() < count_ ? out.size() : count_;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = slots_[head_];
    if (++head_ == slots_.size()) head_ = 0;
  }
  count_ -= n;
  return n;
}

std::int64_t posix_transfer(int fd, const IoRequest& request) noexcept {
  const auto offset = static_cast<off_t>(request.offset_bytes);
  ssize_t done = 0;
  do {
    done = request.op == IoOp::read ? ::pread(fd, request.buffer, request.length_bytes, offset)
                                    : ::pwrite(fd, request.buffer, request.length_bytes, offset);
  } while (done < 0 && errno == EINTR);
  return done < 0 ? -static_cast<std::int64_t>(errno) : static_cast<std::int64_t>(done);
}

Result<void> check_prepare(const EngineOptions& options, bool already_prepared,
                           std::string_view engine_name) {
  if (already_prepared) {
    return fail(ErrorCode::invalid_argument, std::string(engine_name) + ": already prepared");
  }
  if (options.queue_depth == 0 || options.queue_depth > kMaxOutstandingIosPerWorker) {
    return fail(Error(ErrorCode::invalid_argument, std::string(engine_name) + ": queue depth " +
                                                       std::to_string(options.queue_depth) +
                                                       " outside 1.." +
                                                       std::to_string(kMaxOutstandingIosPerWorker))
                    .in_field("queue_depth"));
  }
  return {};
}

Result<void> check_register_targets(std::span<const int> fds, bool prepared,
                                    std::uint32_t in_flight, std::string_view engine_name) {
  if (!prepared) {
    return fail(ErrorCode::invalid_argument,
                std::string(engine_name) + ": register_targets before prepare");
  }
  if (in_flight != 0) {
    return fail(ErrorCode::invalid_argument, std::string(engine_name) +
                                                 ": cannot change targets with " +
                                                 std::to_string(in_flight) + " I/Os in flight");
  }
  if (fds.size() > UINT32_MAX) {
    return fail(ErrorCode::invalid_argument, std::string(engine_name) + ": too many targets");
  }
  return {};
}

Error system_error(std::string_view engine_name, std::string_view what, int err) {
  // The errnos a kernel, sysctl or seccomp filter uses to say "not here" are not I/O errors.
  const bool refused = err == ENOSYS || err == EPERM || err == EOPNOTSUPP || err == EACCES;
  return Error(refused ? ErrorCode::unsupported : ErrorCode::io_error,
               std::string(engine_name) + ": " + std::string(what) + ": " + std::strerror(err));
}

}  // namespace iomark::engine::detail
