// Pinning a thread to one CPU: what a worker does with its --cpus entry, and what `auto`'s
// calibration does so that it measures the engines where that worker will run.
#pragma once

#include <pthread.h>

#include <cstdint>

namespace iomark {

// Restricts `thread` to CPU `cpu`. 0, or the errno of pthread_setaffinity_np (EINVAL: the
// CPU does not exist or is not allowed to this process).
[[nodiscard]] int pin_thread_to_cpu(pthread_t thread, std::uint32_t cpu) noexcept;

}  // namespace iomark
