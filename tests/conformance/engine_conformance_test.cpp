// One suite, every engine: the IoEngine contract (io_engine.hpp) checked on a temp file,
// with O_DIRECT where the temp directory's file system allows it. Data written through an
// engine is checked with plain pread, and data read through an engine was written with
// plain pwrite, so the engine is never its own witness.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "iomark/engine/buffer_pool.hpp"
#include "iomark/engine/engines.hpp"

namespace iomark::engine {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr std::uint32_t kQueueDepth = 32;
constexpr std::uint32_t kBlock = 4096;
constexpr std::size_t kSlotBytes = 64 * 1024;
constexpr std::uint64_t kFileBytes = 8 * 1024 * 1024;
// A safety net against a hung engine; no assertion is about speed.
constexpr auto kPatience = seconds(60);

// An unlinked temp file with two independent open file descriptions: `io_fd` for the
// engine (O_DIRECT when the file system accepts it) and `check_fd` (buffered) for the
// test's own pread/pwrite.
class TempFile {
 public:
  explicit TempFile(std::uint64_t size_bytes) {
    const char* dir = std::getenv("TMPDIR");
    std::string path =
        std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/iomark-engine-XXXXXX";
    check_fd_ = ::mkstemp(path.data());
    if (check_fd_ < 0) {
      error_ = "mkstemp " + path + ": " + std::strerror(errno);
      return;
    }
    ::unlink(path.c_str());
    if (::ftruncate(check_fd_, static_cast<off_t>(size_bytes)) != 0) {
      error_ = std::string("ftruncate: ") + std::strerror(errno);
      return;
    }
    const std::string self = "/proc/self/fd/" + std::to_string(check_fd_);
    io_fd_ = ::open(self.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
    direct_ = io_fd_ >= 0;
    if (!direct_) {
      std::cerr << "note: the file system of " << path.substr(0, path.rfind('/'))
                << " refuses O_DIRECT (" << std::strerror(errno)
                << "); testing the engines with buffered I/O\n";
      io_fd_ = ::open(self.c_str(), O_RDWR | O_CLOEXEC);
      if (io_fd_ < 0) error_ = std::string("reopen: ") + std::strerror(errno);
    }
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (io_fd_ >= 0) ::close(io_fd_);
    if (check_fd_ >= 0) ::close(check_fd_);
  }

  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] int io_fd() const { return io_fd_; }
  [[nodiscard]] int check_fd() const { return check_fd_; }
  [[nodiscard]] bool direct() const { return direct_; }

 private:
  int check_fd_{-1};
  int io_fd_{-1};
  bool direct_{};
  std::string error_;
};

std::vector<std::byte> random_bytes(std::size_t size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> bytes(size);
  for (auto& b : bytes) b = static_cast<std::byte>(rng() & 0xFF);
  return bytes;
}

std::vector<std::byte> pread_exactly(int fd, std::size_t size, std::uint64_t offset) {
  std::vector<std::byte> bytes(size);
  const ssize_t done = ::pread(fd, bytes.data(), size, static_cast<off_t>(offset));
  EXPECT_EQ(done, static_cast<ssize_t>(size)) << "pread at " << offset;
  return bytes;
}

void pwrite_exactly(int fd, std::span<const std::byte> bytes, std::uint64_t offset) {
  ASSERT_EQ(::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset)),
            static_cast<ssize_t>(bytes.size()));
}

// One engine configuration under test: every kind, plus io_uring's optional modes.
struct EngineVariant {
  EngineKind kind{EngineKind::null};
  SubmissionPolling polling{SubmissionPolling::off};
  CallingThreads calling_threads{CallingThreads::any};
  const char* label{""};
};

constexpr std::array<EngineVariant, 7> kVariants{{
    {EngineKind::io_uring, SubmissionPolling::off, CallingThreads::any, "io_uring"},
    {EngineKind::io_uring, SubmissionPolling::kernel_thread, CallingThreads::any,
     "io_uring_sqpoll"},
    {EngineKind::io_uring, SubmissionPolling::off, CallingThreads::single,
     "io_uring_single_issuer"},
    {EngineKind::linux_aio, SubmissionPolling::off, CallingThreads::any, "linux_aio"},
    {EngineKind::threadpool, SubmissionPolling::off, CallingThreads::any, "threadpool"},
    {EngineKind::sync, SubmissionPolling::off, CallingThreads::any, "sync"},
    {EngineKind::null, SubmissionPolling::off, CallingThreads::any, "null"},
}};

// Readable parameter values in gtest's failure messages.
void PrintTo(const EngineVariant& variant, std::ostream* out) { *out << variant.label; }

class EngineConformance : public testing::TestWithParam<EngineVariant> {
 protected:
  void SetUp() override {
    file_ = std::make_unique<TempFile>(kFileBytes);
    ASSERT_TRUE(file_->error().empty()) << file_->error();

    auto engine = make_prepared_engine(kind(), options());
    if (!engine) {
      GTEST_SKIP() << GetParam().label << " cannot run here: " << engine.error().describe();
    }
    engine_ = std::move(*engine);

    auto pool = BufferPool::create(kQueueDepth, kSlotBytes, 512);
    ASSERT_TRUE(pool) << pool.error().describe();
    pool_ = std::make_unique<BufferPool>(std::move(*pool));

    const std::array<int, 1> fds{file_->io_fd()};
    ASSERT_TRUE(engine_->register_targets(fds));
    // Optional by contract; where the kernel refuses, the engine carries on without.
    if (auto registered = engine_->register_buffers(std::array{pool_->region()}); !registered) {
      std::cerr << "note: " << registered.error().describe() << "\n";
    }
  }

  [[nodiscard]] static EngineKind kind() { return GetParam().kind; }
  [[nodiscard]] static EngineOptions options() {
    EngineOptions options;
    options.queue_depth = kQueueDepth;
    options.submission_polling = GetParam().polling;
    options.calling_threads = GetParam().calling_threads;
    return options;
  }

  [[nodiscard]] bool transfers_data() const {
    return engine_->capabilities().has(Capability::transfers_data);
  }

  void submit_all(std::span<const IoRequest> requests) {
    const SubmitResult result = engine_->submit(requests);
    ASSERT_EQ(result.accepted, requests.size())
        << "status " << static_cast<int>(result.status) << " error " << std::strerror(result.error);
    ASSERT_EQ(result.status, SubmitStatus::all_accepted);
  }

  // Reaps exactly `count` completions (never more: the output span is cut to what is left).
  std::vector<IoCompletion> reap_exactly(std::size_t count) {
    std::vector<IoCompletion> got;
    std::array<IoCompletion, 64> out{};
    const auto give_up = std::chrono::steady_clock::now() + kPatience;
    while (got.size() < count && std::chrono::steady_clock::now() < give_up) {
      const std::size_t room = std::min(out.size(), count - got.size());
      const ReapResult reaped = engine_->reap(std::span(out).first(room), room, seconds(1));
      EXPECT_EQ(reaped.error, 0) << std::strerror(reaped.error);
      EXPECT_LE(reaped.count, room);
      got.insert(got.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(reaped.count));
    }
    EXPECT_EQ(got.size(), count) << "completions missing after " << kPatience.count() << " s";
    return got;
  }

  IoCompletion reap_one() {
    auto got = reap_exactly(1);
    return got.empty() ? IoCompletion{~std::uint64_t{0}, 0} : got.front();
  }

  std::unique_ptr<TempFile> file_;
  std::unique_ptr<IoEngine> engine_;
  std::unique_ptr<BufferPool> pool_;
};

TEST_P(EngineConformance, NameAndKindAgree) {
  EXPECT_EQ(engine_->kind(), kind());
  EXPECT_EQ(engine_->name(), to_string(kind()));
  EXPECT_EQ(engine_->capabilities().has(Capability::submission_polling),
            GetParam().polling == SubmissionPolling::kernel_thread);
  EXPECT_EQ(engine_->queue_depth(), kQueueDepth);
  EXPECT_EQ(engine_->in_flight(), 0U);
}

TEST_P(EngineConformance, WritesThenReadsBackAtSeveralOffsets) {
  if (!transfers_data()) GTEST_SKIP() << "the null engine moves no data";
  struct Extent {
    std::uint64_t offset;
    std::uint32_t length;
  };
  const std::array<Extent, 5> extents{{{0, 4096},
                                       {4096, 8192},
                                       {65536, 65536},
                                       {1024 * 1024 + 12288, 4096},
                                       {kFileBytes - 16384, 16384}}};

  // Engine writes, checked with pread.
  std::vector<IoRequest> writes;
  std::vector<std::vector<std::byte>> written;
  for (std::size_t i = 0; i < extents.size(); ++i) {
    written.push_back(random_bytes(extents[i].length, extents[i].offset + 1));
    std::memcpy(pool_->slot(i), written.back().data(), extents[i].length);
    writes.push_back(
        {100 + i, 0, IoOp::write, extents[i].offset, extents[i].length, pool_->slot(i)});
  }
  submit_all(writes);
  for (const IoCompletion& done : reap_exactly(writes.size())) {
    ASSERT_GE(done.tag, 100U);
    ASSERT_LT(done.tag, 100U + extents.size());
    EXPECT_EQ(done.result, extents[done.tag - 100].length) << "write tag " << done.tag;
  }
  for (std::size_t i = 0; i < extents.size(); ++i) {
    EXPECT_EQ(pread_exactly(file_->check_fd(), extents[i].length, extents[i].offset), written[i])
        << "bytes at offset " << extents[i].offset;
  }

  // pwrite new data, then read it through the engine, half into unregistered buffers.
  for (std::size_t i = 0; i < extents.size(); ++i) {
    written[i] = random_bytes(extents[i].length, extents[i].offset + 7777);
    pwrite_exactly(file_->check_fd(), written[i], extents[i].offset);
  }
  ASSERT_EQ(::fdatasync(file_->check_fd()), 0);
  auto unregistered = BufferPool::create(extents.size(), kSlotBytes, 512);
  ASSERT_TRUE(unregistered);
  std::vector<IoRequest> reads;
  for (std::size_t i = 0; i < extents.size(); ++i) {
    std::byte* buffer = i % 2 == 0 ? pool_->slot(i) : unregistered->slot(i);
    std::memset(buffer, 0, extents[i].length);
    reads.push_back({200 + i, 0, IoOp::read, extents[i].offset, extents[i].length, buffer});
  }
  submit_all(reads);
  for (const IoCompletion& done : reap_exactly(reads.size())) {
    ASSERT_GE(done.tag, 200U);
    ASSERT_LT(done.tag, 200U + extents.size());
    EXPECT_EQ(done.result, extents[done.tag - 200].length) << "read tag " << done.tag;
  }
  for (std::size_t i = 0; i < extents.size(); ++i) {
    const std::vector<std::byte> got(reads[i].buffer, reads[i].buffer + extents[i].length);
    EXPECT_EQ(got, written[i]) << "bytes read at offset " << extents[i].offset;
  }
}

TEST_P(EngineConformance, TagsComeBackExactlyOnce) {
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> tags{0, ~std::uint64_t{0}};
  while (tags.size() < kQueueDepth) tags.push_back(rng());
  std::vector<IoRequest> requests;
  for (std::size_t i = 0; i < tags.size(); ++i) {
    requests.push_back({tags[i], 0, IoOp::read, (i * 37 % 2048) * kBlock, kBlock, pool_->slot(i)});
  }
  // Uneven batches, reaped through a small window, so completions straddle calls.
  const std::span<const IoRequest> all(requests);
  submit_all(all.subspan(0, 1));
  submit_all(all.subspan(1, 7));
  submit_all(all.subspan(8));
  EXPECT_EQ(engine_->in_flight(), kQueueDepth);

  std::multiset<std::uint64_t> returned;
  std::array<IoCompletion, 5> window{};
  const auto give_up = std::chrono::steady_clock::now() + kPatience;
  while (returned.size() < tags.size() && std::chrono::steady_clock::now() < give_up) {
    const ReapResult reaped = engine_->reap(window, 1, seconds(1));
    ASSERT_EQ(reaped.error, 0);
    ASSERT_LE(reaped.count, window.size());
    for (std::size_t i = 0; i < reaped.count; ++i) {
      returned.insert(window[i].tag);
      EXPECT_EQ(window[i].result, kBlock) << "tag " << window[i].tag;
    }
  }
  EXPECT_EQ(returned, std::multiset<std::uint64_t>(tags.begin(), tags.end()));
  EXPECT_EQ(engine_->in_flight(), 0U);
  EXPECT_EQ(engine_->reap(window, 0, Nanoseconds::zero()).count, 0U) << "a tag came back twice";
}

TEST_P(EngineConformance, RefusesMoreThanQueueDepthCleanly) {
  // 32 reads fill the queue; 8 writes of 0xEE to blocks 600..607 must not be issued.
  std::vector<IoRequest> requests;
  for (std::uint32_t i = 0; i < kQueueDepth; ++i) {
    requests.push_back({i, 0, IoOp::read, std::uint64_t{i} * kBlock, kBlock, pool_->slot(i)});
  }
  auto marker = BufferPool::create(1, kBlock, 512);
  ASSERT_TRUE(marker);
  marker->fill(std::array{std::byte{0xEE}});
  for (std::uint32_t i = 0; i < 8; ++i) {
    requests.push_back(
        {1000 + i, 0, IoOp::write, (600 + std::uint64_t{i}) * kBlock, kBlock, marker->slot(0)});
  }

  const SubmitResult first = engine_->submit(requests);
  EXPECT_EQ(first.accepted, kQueueDepth);
  EXPECT_EQ(first.status, SubmitStatus::queue_full);
  EXPECT_EQ(engine_->in_flight(), kQueueDepth);
  const SubmitResult again = engine_->submit(std::span(requests).subspan(kQueueDepth, 1));
  EXPECT_EQ(again.accepted, 0U);
  EXPECT_EQ(again.status, SubmitStatus::queue_full);

  const IoCompletion one = reap_one();
  EXPECT_LT(one.tag, kQueueDepth);
  EXPECT_EQ(engine_->in_flight(), kQueueDepth - 1);
  auto rest = reap_exactly(kQueueDepth - 1);
  rest.push_back(one);
  std::set<std::uint64_t> tags;
  for (const auto& done : rest) tags.insert(done.tag);
  EXPECT_EQ(tags.size(), kQueueDepth);
  EXPECT_LT(*tags.rbegin(), kQueueDepth) << "a refused request completed";
  if (transfers_data()) {
    const std::vector<std::byte> zeros(8 * kBlock);
    EXPECT_EQ(pread_exactly(file_->check_fd(), zeros.size(), 600 * kBlock), zeros)
        << "a refused write reached the file";
  }

  // Once there is room, the refused request goes through.
  submit_all(std::span(requests).subspan(kQueueDepth, 1));
  const IoCompletion late = reap_one();
  EXPECT_EQ(late.tag, 1000U);
  EXPECT_EQ(late.result, kBlock);
  if (transfers_data()) {
    std::vector<std::byte> expected(kBlock, std::byte{0xEE});
    EXPECT_EQ(pread_exactly(file_->check_fd(), kBlock, 600 * kBlock), expected);
  }
}

TEST_P(EngineConformance, EmptySubmitTakesNothing) {
  const SubmitResult result = engine_->submit({});
  EXPECT_EQ(result.accepted, 0U);
  EXPECT_EQ(result.status, SubmitStatus::all_accepted);
  EXPECT_EQ(engine_->in_flight(), 0U);
}

TEST_P(EngineConformance, ReadPastEndOfFileReportsTheRealCount) {
  if (!transfers_data()) GTEST_SKIP() << "the null engine moves no data";
  constexpr std::uint64_t kSize = 3 * kBlock + 1000;
  ASSERT_EQ(::ftruncate(file_->check_fd(), static_cast<off_t>(kSize)), 0);
  const auto content = random_bytes(kSize, 99);
  pwrite_exactly(file_->check_fd(), content, 0);
  ASSERT_EQ(::fdatasync(file_->check_fd()), 0);

  const std::array<IoRequest, 3> reads{{
      {1, 0, IoOp::read, 2 * kBlock, 2 * kBlock, pool_->slot(0)},  // crosses the end
      {2, 0, IoOp::read, 4 * kBlock, kBlock, pool_->slot(1)},      // starts past it
      {3, 0, IoOp::read, 1024 * kBlock, kBlock, pool_->slot(2)},   // far past it
  }};
  submit_all(reads);
  std::map<std::uint64_t, std::int64_t> results;
  for (const auto& done : reap_exactly(reads.size())) results[done.tag] = done.result;
  EXPECT_EQ(results[1], static_cast<std::int64_t>(kSize - 2 * kBlock));
  EXPECT_EQ(results[2], 0);
  EXPECT_EQ(results[3], 0);
  const std::vector<std::byte> tail(pool_->slot(0), pool_->slot(0) + (kSize - 2 * kBlock));
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), content.begin() + 2 * kBlock));
}

TEST_P(EngineConformance, UnregisteredTargetIndexCompletesWithEbadf) {
  const std::array<IoRequest, 2> requests{{
      {7, 5, IoOp::read, 0, kBlock, pool_->slot(0)},
      {8, 0, IoOp::read, 0, kBlock, pool_->slot(1)},
  }};
  submit_all(requests);
  std::map<std::uint64_t, std::int64_t> results;
  for (const auto& done : reap_exactly(2)) results[done.tag] = done.result;
  EXPECT_EQ(results[7], -EBADF);
  EXPECT_EQ(results[8], kBlock);
}

TEST_P(EngineConformance, InvalidDescriptorCompletesWithEbadf) {
  if (!transfers_data()) GTEST_SKIP() << "the null engine never uses descriptors";
  const int closed = ::dup(file_->io_fd());
  ASSERT_GE(closed, 0);
  ::close(closed);
  const std::array<int, 3> fds{file_->io_fd(), -1, closed};
  ASSERT_TRUE(engine_->register_targets(fds));

  const std::array<IoRequest, 4> requests{{
      {1, 1, IoOp::read, 0, kBlock, pool_->slot(0)},
      {2, 2, IoOp::write, 0, kBlock, pool_->slot(1)},
      {3, 0, IoOp::read, 0, kBlock, pool_->slot(2)},
      {4, 1, IoOp::write, kBlock, kBlock, pool_->slot(3)},
  }};
  submit_all(requests);
  std::map<std::uint64_t, std::int64_t> results;
  for (const auto& done : reap_exactly(requests.size())) results[done.tag] = done.result;
  EXPECT_EQ(results[1], -EBADF);
  EXPECT_EQ(results[2], -EBADF);
  EXPECT_EQ(results[3], kBlock) << "a valid target next to invalid ones still works";
  EXPECT_EQ(results[4], -EBADF);
}

TEST_P(EngineConformance, MisalignedDirectIoCompletesWithNegativeErrno) {
  if (!transfers_data()) GTEST_SKIP() << "the null engine moves no data";
  if (!file_->direct()) GTEST_SKIP() << "the temp file system refused O_DIRECT";
  // Real data first: a file system zero-fills a hole without looking at alignment.
  pwrite_exactly(file_->check_fd(), random_bytes(4 * kBlock, 5), 0);
  ASSERT_EQ(::fdatasync(file_->check_fd()), 0);
  // The oracle: what the kernel says to a plain pread with the same misalignment.
  std::byte* const misaligned = pool_->slot(0) + 1;
  const ssize_t plain = ::pread(file_->io_fd(), misaligned, kBlock - 1, 1);
  const int plain_errno = errno;
  if (plain >= 0) GTEST_SKIP() << "this file system serves misaligned O_DIRECT reads";

  const std::array<IoRequest, 2> requests{{
      {1, 0, IoOp::read, 1, kBlock - 1, misaligned},
      {2, 0, IoOp::write, 513, kBlock - 1, misaligned},
  }};
  submit_all(requests);
  for (const auto& done : reap_exactly(requests.size())) {
    EXPECT_EQ(done.result, -plain_errno) << "tag " << done.tag;
  }
  // The engine is still usable afterwards.
  const IoRequest good{3, 0, IoOp::read, 0, kBlock, pool_->slot(1)};
  submit_all(std::span(&good, 1));
  EXPECT_EQ(reap_one().result, kBlock);
}

TEST_P(EngineConformance, ReapWithNothingInFlightReturns) {
  std::array<IoCompletion, 4> out{};
  const ReapResult waited = engine_->reap(out, 1, seconds(5));
  EXPECT_EQ(waited.count, 0U);
  EXPECT_EQ(waited.error, 0);
  EXPECT_EQ(engine_->reap(out, out.size(), Nanoseconds::zero()).count, 0U);

  const IoRequest read{1, 0, IoOp::read, 0, kBlock, pool_->slot(0)};
  submit_all(std::span(&read, 1));
  EXPECT_EQ(reap_one().tag, 1U);
  EXPECT_EQ(engine_->reap(out, 1, seconds(5)).count, 0U) << "nothing is left in flight";
}

TEST_P(EngineConformance, ReapHonoursTimeoutWhileIoIsPending) {
  // Only io_uring can hold a read that never completes (on an empty pipe) without blocking
  // the caller: linux-aio and sync would block in submit, pread on a pipe fails at once.
  if (kind() != EngineKind::io_uring) GTEST_SKIP() << "needs an engine that polls pipes";
  std::array<int, 2> pipe_fds{};
  ASSERT_EQ(::pipe(pipe_fds.data()), 0);
  ASSERT_TRUE(engine_->register_targets(std::span(pipe_fds).first(1)));

  const IoRequest read{77, 0, IoOp::read, 0, kBlock, pool_->slot(0)};
  submit_all(std::span(&read, 1));
  std::array<IoCompletion, 1> out{};
  const ReapResult timed_out = engine_->reap(out, 1, milliseconds(100));
  EXPECT_EQ(timed_out.count, 0U);
  EXPECT_EQ(timed_out.error, 0);
  EXPECT_EQ(engine_->in_flight(), 1U);

  ASSERT_EQ(::write(pipe_fds[1], "hello", 5), 5);
  const IoCompletion done = reap_one();
  EXPECT_EQ(done.tag, 77U);
  EXPECT_EQ(done.result, 5) << "a short read is reported as short";
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST_P(EngineConformance, PollingReapEventuallySeesEveryCompletion) {
  std::vector<IoRequest> requests;
  for (std::uint32_t i = 0; i < 8; ++i) {
    requests.push_back({i, 0, IoOp::read, std::uint64_t{i} * 3 * kBlock, kBlock, pool_->slot(i)});
  }
  submit_all(requests);
  std::set<std::uint64_t> seen;
  std::array<IoCompletion, 8> out{};
  const auto give_up = std::chrono::steady_clock::now() + kPatience;
  while (seen.size() < requests.size() && std::chrono::steady_clock::now() < give_up) {
    const ReapResult reaped = engine_->reap(out, 0, Nanoseconds::zero());
    ASSERT_EQ(reaped.error, 0);
    for (std::size_t i = 0; i < reaped.count; ++i) EXPECT_TRUE(seen.insert(out[i].tag).second);
  }
  EXPECT_EQ(seen.size(), requests.size());
}

TEST_P(EngineConformance, TenThousandRandomIosAtDepth32CompleteWithTheRightTags) {
  constexpr std::uint64_t kTotal = 10'000;
  constexpr std::uint64_t kTagBase = 0x5EED'0000'0000'0000;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> block(0, kFileBytes / kBlock - 1);
  std::bernoulli_distribution is_write(0.3);

  // Slot i of the pool belongs to whichever request is outstanding with slot i.
  std::vector<std::uint32_t> free_slots;
  for (std::uint32_t i = 0; i < kQueueDepth; ++i) free_slots.push_back(i);
  std::map<std::uint64_t, std::uint32_t> outstanding;  // tag -> slot
  std::uint64_t issued = 0;
  std::uint64_t completed = 0;
  std::uint32_t most_in_flight = 0;
  std::vector<IoRequest> batch;
  std::array<IoCompletion, kQueueDepth> out{};
  std::uint64_t rounds = 0;

  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(4);
  while (completed < kTotal && std::chrono::steady_clock::now() < give_up) {
    batch.clear();
    while (!free_slots.empty() && issued < kTotal) {
      const std::uint32_t slot = free_slots.back();
      free_slots.pop_back();
      const std::uint64_t tag = kTagBase + issued++;
      outstanding[tag] = slot;
      batch.push_back({tag, 0, is_write(rng) ? IoOp::write : IoOp::read, block(rng) * kBlock,
                       kBlock, pool_->slot(slot)});
    }
    if (!batch.empty()) submit_all(batch);
    if (HasFatalFailure()) return;
    most_in_flight = std::max(most_in_flight, engine_->in_flight());

    // Alternate waiting and polling reaps, as a worker with think time would.
    const bool wait = rounds++ % 2 == 0;
    const ReapResult reaped =
        engine_->reap(out, wait ? 1 : 0, wait ? seconds(1) : Nanoseconds::zero());
    ASSERT_EQ(reaped.error, 0);
    for (std::size_t i = 0; i < reaped.count; ++i) {
      const auto found = outstanding.find(out[i].tag);
      ASSERT_NE(found, outstanding.end()) << "unknown or repeated tag " << out[i].tag;
      EXPECT_EQ(out[i].result, kBlock) << "tag " << out[i].tag;
      free_slots.push_back(found->second);
      outstanding.erase(found);
      ++completed;
    }
  }
  EXPECT_EQ(completed, kTotal);
  EXPECT_TRUE(outstanding.empty());
  EXPECT_EQ(issued, kTotal);
  EXPECT_LE(most_in_flight, kQueueDepth);
  EXPECT_EQ(engine_->in_flight(), 0U);
}

TEST_P(EngineConformance, LifecycleMisuseIsAnErrorNotACrash) {
  EngineOptions options = this->options();
  EXPECT_FALSE(engine_->prepare(options)) << "a second prepare must be refused";

  const IoRequest read{1, 0, IoOp::read, 0, kBlock, pool_->slot(0)};
  submit_all(std::span(&read, 1));
  const std::array<int, 1> fds{file_->io_fd()};
  const auto changed = engine_->register_targets(fds);
  EXPECT_FALSE(changed) << "targets changed under an I/O in flight";
  EXPECT_EQ(reap_one().tag, 1U);
  EXPECT_TRUE(engine_->register_targets(fds)) << "allowed again once idle";

  auto fresh = make_engine(kind());
  options.queue_depth = 0;
  EXPECT_FALSE(fresh->prepare(options));
  EXPECT_FALSE(fresh->register_targets(fds)) << "targets before prepare";
}

std::string engine_test_name(const testing::TestParamInfo<EngineVariant>& info) {
  return info.param.label;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineConformance, testing::ValuesIn(kVariants),
                         engine_test_name);

}  // namespace
}  // namespace iomark::engine
