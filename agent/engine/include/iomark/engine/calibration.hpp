// Seeing io_uring punt: does io_uring complete a target's reads itself, or does it hand each
// one to an io-wq worker thread?
//
// Why it matters: io_uring first tries every read without blocking. A driver that
// cannot promise that (zram and other bio-based drivers without nowait support) makes the
// kernel punt the read to an io-wq worker thread: at queue depth 1 that adds a thread wake-up
// to every I/O (17 K IOPS instead of 240 K on zram), and at depth it burns a second core.
// `auto`'s calibration (engine_trial.hpp) counts these threads after io_uring's trial, and
// the choice (engine_choice.hpp) passes over an io_uring that punted.
//
// How: io-wq workers are threads of our own process named "iou-wrk-<tid>", after the thread
// whose ring queued work to them, and they are started only when work is punted. A trial on
// a fresh thread that counts its own iou-wrk threads therefore sees what it started.
#pragma once

#include <cstdint>

#include "iomark/common/result.hpp"

namespace iomark::engine {

// How many io-wq worker threads ("iou-wrk-<owner_thread_id>") of this process serve the
// io_uring contexts of the given thread (a Linux tid). Reads /proc/self/task.
[[nodiscard]] Result<std::uint32_t> count_io_uring_workers(std::int32_t owner_thread_id);

}  // namespace iomark::engine
