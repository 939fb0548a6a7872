#include "iomark/engine/calibration.hpp"

#include <gtest/gtest.h>
#include <liburing.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include "data_file.hpp"

namespace iomark::engine {
namespace {

using test_support::DataFile;

bool io_uring_works() {
  io_uring ring{};
  if (io_uring_queue_init(2, &ring, 0) != 0) return false;
  io_uring_queue_exit(&ring);
  return true;
}

// Reads one block through a private ring on a fresh thread, optionally forcing the kernel
// to hand it to an io-wq worker (IOSQE_ASYNC), and counts that thread's workers with the
// function under test. Independent of the engine library's own io_uring code.
std::uint32_t workers_after_read(int fd, bool force_async) {
  std::uint32_t counted = 1000;
  std::thread reader([&] {
    io_uring ring{};
    if (io_uring_queue_init(2, &ring, 0) != 0) return;
    std::vector<char> buffer(4096);
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    io_uring_prep_read(sqe, fd, buffer.data(), 4096, 0);
    if (force_async) sqe->flags |= IOSQE_ASYNC;
    io_uring_cqe* cqe = nullptr;
    if (io_uring_submit(&ring) == 1 && io_uring_wait_cqe(&ring, &cqe) == 0 && cqe->res == 4096) {
      io_uring_cqe_seen(&ring, cqe);
      const auto workers = count_io_uring_workers(static_cast<std::int32_t>(::gettid()));
      if (workers) counted = *workers;
    }
    io_uring_queue_exit(&ring);
  });
  reader.join();
  return counted;
}

TEST(CountIoUringWorkers, SeesTheWorkerAForcedAsyncReadStarts) {
  if (!io_uring_works()) GTEST_SKIP() << "io_uring is not available here";
  DataFile file(64 * 1024);
  ASSERT_GE(file.fd(), 0);
  EXPECT_GE(workers_after_read(file.fd(), true), 1U);
  EXPECT_EQ(workers_after_read(file.fd(), false), 0U)
      << "a read of a cached page completes inline, without a worker";
}

TEST(CountIoUringWorkers, IsZeroForAThreadThatNeverUsedIoUring) {
  const auto workers = count_io_uring_workers(static_cast<std::int32_t>(::gettid()));
  ASSERT_TRUE(workers) << workers.error().describe();
  EXPECT_EQ(*workers, 0U);
}

}  // namespace
}  // namespace iomark::engine
