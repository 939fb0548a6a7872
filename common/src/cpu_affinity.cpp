#include "iomark/common/cpu_affinity.hpp"

#include <sched.h>

#include <cerrno>

namespace iomark {

int pin_thread_to_cpu(pthread_t thread, std::uint32_t cpu) noexcept {
  // A dynamically sized set: CPU numbers above CPU_SETSIZE (1024) exist on large hosts.
  cpu_set_t* set = CPU_ALLOC(cpu + 1);
  if (set == nullptr) return ENOMEM;
  const auto set_size = CPU_ALLOC_SIZE(cpu + 1);
  CPU_ZERO_S(set_size, set);
  CPU_SET_S(cpu, set_size, set);
  const int error_number = ::pthread_setaffinity_np(thread, set_size, set);
  CPU_FREE(set);
  return error_number;
}

}  // namespace iomark
