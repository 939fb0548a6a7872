#include "iomark/app_runtime/descriptor_limit.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>

namespace iomark::app_runtime {

namespace {

Error limit_error(const char* call) {
  return Error(ErrorCode::io_error, std::string(call) + "(RLIMIT_NOFILE): " + std::strerror(errno));
}

}  // namespace

Result<DescriptorLimit> raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return fail(limit_error("getrlimit"));
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) != 0) return fail(limit_error("setrlimit"));
    limit = raised;
  }
  return DescriptorLimit{limit.rlim_cur, limit.rlim_max};
}

std::optional<std::string> descriptor_shortfall(DescriptorLimit limit, std::uint64_t connections) {
  const auto needed = connections + kDescriptorsBesidesConnections;
  if (limit.soft >= needed) return std::nullopt;
  const bool hard_too_low = limit.hard < needed;
  return std::to_string(connections) + " managers need about " + std::to_string(needed) +
         " open files, but RLIMIT_NOFILE allows " + std::to_string(limit.soft) +
         (hard_too_low ? " (its hard limit is " + std::to_string(limit.hard) +
                             "): raise it as root (ulimit -Hn, LimitNOFILE= in a systemd unit, or "
                             "/etc/security/limits.conf), or fewer managers can log in"
                       : " (the hard limit would allow it, but raising the soft limit failed)");
}

}  // namespace iomark::app_runtime
