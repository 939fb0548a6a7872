#include "iomark/engine/calibration.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <liburing.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace iomark::engine {
namespace {

std::vector<EngineProbe> probes_with(bool io_uring, bool linux_aio, bool threadpool, bool sync) {
  const auto probe = [](EngineKind kind, bool available) {
    return EngineProbe{kind, available,
                       available ? "" : std::string(to_string(kind)) + ": refused"};
  };
  return {probe(EngineKind::io_uring, io_uring), probe(EngineKind::linux_aio, linux_aio),
          probe(EngineKind::threadpool, threadpool), probe(EngineKind::sync, sync)};
}

TEST(ChooseEngineForTarget, KeepsIoUringWhenReadsAreNotPunted) {
  const auto choice =
      choose_engine_for_target(probes_with(true, true, true, true), ReadPuntMeasurement{16, 0});
  EXPECT_EQ(choice.engine, EngineKind::io_uring);
  EXPECT_NE(choice.reason.find("16 reads"), std::string::npos) << choice.reason;
}

TEST(ChooseEngineForTarget, PrefersLinuxAioWhenIoUringPuntsReads) {
  const auto choice =
      choose_engine_for_target(probes_with(true, true, true, true), ReadPuntMeasurement{16, 1});
  EXPECT_EQ(choice.engine, EngineKind::linux_aio);
  EXPECT_NE(choice.reason.find("io-wq"), std::string::npos) << choice.reason;
}

TEST(ChooseEngineForTarget, KeepsIoUringWhenItPuntsButLinuxAioIsUnavailable) {
  const auto choice =
      choose_engine_for_target(probes_with(true, false, true, true), ReadPuntMeasurement{16, 2});
  EXPECT_EQ(choice.engine, EngineKind::io_uring);
  EXPECT_NE(choice.reason.find("linux-aio: refused"), std::string::npos) << choice.reason;
}

TEST(ChooseEngineForTarget, KeepsIoUringWithoutAMeasurement) {
  const auto choice = choose_engine_for_target(probes_with(true, true, true, true), std::nullopt);
  EXPECT_EQ(choice.engine, EngineKind::io_uring);
}

TEST(ChooseEngineForTarget, FallsBackInProbeOrderWhenIoUringIsUnavailable) {
  const auto aio =
      choose_engine_for_target(probes_with(false, true, true, true), ReadPuntMeasurement{16, 0});
  EXPECT_EQ(aio.engine, EngineKind::linux_aio);
  EXPECT_NE(aio.reason.find("io_uring: refused"), std::string::npos) << aio.reason;
  EXPECT_EQ(choose_engine_for_target(probes_with(false, false, true, true), std::nullopt).engine,
            EngineKind::threadpool);
  EXPECT_EQ(choose_engine_for_target(probes_with(false, false, false, true), std::nullopt).engine,
            EngineKind::sync);
  EXPECT_EQ(choose_engine_for_target(probes_with(false, false, false, false), std::nullopt).engine,
            EngineKind::sync);
}

// A temp file holding `size` bytes of data, opened buffered.
class DataFile {
 public:
  explicit DataFile(std::size_t size) {
    const char* dir = std::getenv("TMPDIR");
    std::string path =
        std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/iomark-calibration-XXXXXX";
    fd_ = ::mkstemp(path.data());
    if (fd_ < 0) return;
    ::unlink(path.c_str());
    const std::vector<char> data(size, 'x');
    if (::pwrite(fd_, data.data(), data.size(), 0) != static_cast<ssize_t>(size)) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  DataFile(const DataFile&) = delete;
  DataFile& operator=(const DataFile&) = delete;
  ~DataFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int fd() const { return fd_; }

 private:
  int fd_{-1};
};

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

TEST(MeasureIoUringReadPunting, CachedBufferedReadsAreNotPunted) {
  if (!io_uring_works()) GTEST_SKIP() << "io_uring is not available here";
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  const auto measured = measure_io_uring_read_punting(file.fd(), 1024 * 1024, 512, 16);
  ASSERT_TRUE(measured) << measured.error().describe();
  EXPECT_EQ(measured->reads_issued, 16U);
  EXPECT_EQ(measured->io_worker_threads, 0U);
  EXPECT_FALSE(measured->punted());
}

TEST(MeasureIoUringReadPunting, ReportsUnusableTargetsAsErrors) {
  if (!io_uring_works()) GTEST_SKIP() << "io_uring is not available here";
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  EXPECT_FALSE(measure_io_uring_read_punting(file.fd(), 4095, 512)) << "less than one block";
  EXPECT_FALSE(measure_io_uring_read_punting(file.fd(), 1 << 20, 3000)) << "bad block size";
  EXPECT_FALSE(measure_io_uring_read_punting(file.fd(), 1 << 20, 512, 0)) << "no reads";
  EXPECT_FALSE(measure_io_uring_read_punting(file.fd(), 1 << 20, 512, 65)) << "too many reads";
  const auto bad_fd = measure_io_uring_read_punting(-1, 1 << 20, 512);
  ASSERT_FALSE(bad_fd);
  EXPECT_NE(bad_fd.error().message().find("Bad file descriptor"), std::string::npos)
      << bad_fd.error().describe();
}

TEST(CalibrateTarget, NamesAFailedMeasurementAndStillChooses) {
  if (!io_uring_works()) GTEST_SKIP() << "io_uring is not available here";
  const auto choice = calibrate_target(-1, 1 << 20, 512, probes_with(true, true, true, true));
  EXPECT_EQ(choice.engine, EngineKind::io_uring);
  EXPECT_NE(choice.reason.find("measuring failed"), std::string::npos) << choice.reason;
}

TEST(CalibrateTarget, DoesNotMeasureWhenIoUringIsUnavailable) {
  const auto choice = calibrate_target(-1, 1 << 20, 512, probes_with(false, true, true, true));
  EXPECT_EQ(choice.engine, EngineKind::linux_aio);
  EXPECT_EQ(choice.reason.find("measuring failed"), std::string::npos) << choice.reason;
}

TEST(CalibrateTarget, MeasuresARealFile) {
  if (!io_uring_works()) GTEST_SKIP() << "io_uring is not available here";
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  const auto choice = calibrate_target(file.fd(), 1024 * 1024, 512, probe_engines());
  EXPECT_EQ(choice.engine, EngineKind::io_uring) << choice.reason;
  EXPECT_NE(choice.reason.find("without io-wq worker threads"), std::string::npos) << choice.reason;
}

}  // namespace
}  // namespace iomark::engine
