#include "iomark/common/io_clock.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace iomark {

std::uint64_t clock_now_ns(clockid_t clock) noexcept {
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(now.tv_nsec);
}

bool has_invariant_tsc() noexcept {
#if defined(__x86_64__)
  // CPUID 0x80000007 ("advanced power management"), EDX bit 8: the TSC is invariant.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000U, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007U) return false;
  if (__get_cpuid(0x80000007U, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (edx & (1U << 8)) != 0;
#else
  return false;
#endif
}

}  // namespace iomark
