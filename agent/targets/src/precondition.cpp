#include "iomark/targets/precondition.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "posix.hpp"

namespace iomark::targets {

namespace {

using detail::AlignedBuffer;

// A write kind in the target's sectors: whole-sector blocks and offsets, as O_DIRECT needs.
struct SectorWrite {
  std::uint64_t block{};
  std::uint64_t align{};
  std::uint32_t weight{};
  std::uint32_t percent_random{};
};

// What every stream shares: the bytes still to claim, the bytes done, and the first failure.
struct Shared {
  const std::string& path;
  int fd{};
  std::uint64_t size{};    // of the target, whole sectors
  std::uint64_t total{};   // size x passes
  std::uint32_t passes{};
  const ChunkFiller& fill;
  std::atomic<std::uint64_t> claimed{0};
  std::atomic<std::uint64_t> written{0};
  std::atomic<bool> halt{false};
  std::mutex mutex{};  // the filler and the failure
  std::optional<Error> failure{};
  bool many_streams{false};

  void fail_with(Error error) {
    const std::lock_guard lock(mutex);
    if (!failure) failure = std::move(error);
    halt = true;
  }
};

class Stream {
 public:
  Stream(Shared& shared, const std::vector<SectorWrite>& writes, std::uint64_t start, std::uint64_t seed,
         AlignedBuffer buffer)
      : shared_(shared), writes_(writes), next_sequential_(start), random_(seed), buffer_(std::move(buffer)) {
    for (const auto& write : writes_) total_weight_ += write.weight;
  }

  // One block: false once the passes are written, or when a failure (this stream's or
  // another's) has halted every stream.
  bool write_one() {
    if (shared_.halt) return false;
    const auto& kind = pick();
    std::uint64_t length = std::min(kind.block, shared_.size);
    std::uint64_t offset = 0;
    if (kind.percent_random != 0 && random_() % 100 < kind.percent_random) {
      const std::uint64_t slots = (shared_.size - length) / kind.align + 1;
      offset = random_() % slots * kind.align;
    } else {
      if (next_sequential_ >= shared_.size) next_sequential_ = 0;
      offset = next_sequential_;
      length = std::min(length, shared_.size - offset);
    }
    const std::uint64_t before = shared_.claimed.fetch_add(length);
    if (before >= shared_.total) return false;
    length = std::min(length, shared_.total - before);
    const std::span<std::byte> data(buffer_.get(), static_cast<std::size_t>(length));
    fill(data);
    const auto [written, error] = detail::write_fully(shared_.fd, data, offset);
    shared_.written += written;
    if (error != 0) {
      const std::uint64_t pass = std::min<std::uint64_t>(before / shared_.size + 1, shared_.passes);
      shared_.fail_with(detail::os_error(ErrorCode::io_error,
                                         shared_.path + ": preconditioning pass " + std::to_string(pass) + " of " +
                                             std::to_string(shared_.passes) + " failed at byte " +
                                             std::to_string(offset + written),
                                         error));
      return false;
    }
    next_sequential_ = offset + length;
    return true;
  }

 private:
  const SectorWrite& pick() {
    if (writes_.size() == 1) return writes_.front();
    std::uint64_t ticket = random_() % total_weight_;
    for (const auto& write : writes_) {
      if (ticket < write.weight) return write;
      ticket -= write.weight;
    }
    return writes_.back();
  }

  void fill(std::span<std::byte> data) {
    if (!shared_.fill) {
      // IOmeter's default pattern: a repeating byte, here the pass's number.
      std::fill(data.begin(), data.end(), static_cast<std::byte>(shared_.written / shared_.size + 1));
      return;
    }
    if (!shared_.many_streams) return shared_.fill(data);
    const std::lock_guard lock(shared_.mutex);
    shared_.fill(data);
  }

  Shared& shared_;
  const std::vector<SectorWrite>& writes_;
  std::uint64_t total_weight_{};
  std::uint64_t next_sequential_{};
  std::mt19937_64 random_;
  AlignedBuffer buffer_;
};

}  // namespace

Result<Preconditioned> precondition_target(std::string_view path, const PreconditionOptions& options,
                                           const SafetyPolicy& policy, const ChunkFiller& fill,
                                           const PrepareProgress& progress, std::stop_token stop) {
  if (options.passes == 0) return fail(ErrorCode::invalid_argument, std::string(path) + ": 0 preconditioning passes");
  if (options.writes.empty() || options.streams == 0 ||
      std::any_of(options.writes.begin(), options.writes.end(),
                  [](const PreconditionWrite& write) { return write.weight == 0 || write.percent_random > 100; })) {
    return fail(ErrorCode::invalid_argument, std::string(path) + ": no preconditioning writes to make");
  }
  auto target = open_target(path, {.access = AccessMode::read_write, .caching = options.caching}, policy);
  if (!target) return fail(target.error());
  const auto& info = target->info();
  const std::uint64_t sector = std::max<std::uint32_t>(info.sector_size_bytes, 1);
  // Whole sectors only: O_DIRECT writes a device's last partial sector no more than a run reads it.
  const std::uint64_t size = info.size_bytes / sector * sector;
  if (size == 0) return fail(ErrorCode::invalid_argument, info.path + " is empty: nothing to precondition");

  std::vector<SectorWrite> writes;
  std::uint64_t largest = 0;
  for (const auto& write : options.writes) {
    const std::uint64_t block = std::max<std::uint64_t>(write.block_bytes / sector, 1) * sector;
    const std::uint64_t align = (std::max<std::uint64_t>(write.align_bytes, sector) + sector - 1) / sector * sector;
    writes.push_back({.block = block, .align = align, .weight = write.weight, .percent_random = write.percent_random});
    largest = std::max(largest, std::min(block, size));
  }

  Shared shared{.path = info.path, .fd = target->fd(), .size = size, .total = size * options.passes,
                .passes = options.passes, .fill = fill, .many_streams = options.streams > 1};
  std::vector<Stream> streams;
  streams.reserve(options.streams);
  for (std::uint32_t i = 0; i < options.streams; ++i) {
    auto buffer = detail::direct_io_buffer(sector, largest);
    if (!buffer) return fail(ErrorCode::io_error, info.path + ": cannot allocate a " + detail::describe_bytes(largest) + " buffer");
    const std::uint64_t start = size / options.streams * i / writes.front().align * writes.front().align;
    streams.emplace_back(shared, writes, start, options.seed + 0x9E3779B97F4A7C15ULL * i, std::move(buffer));
  }

  bool cancelled = false;
  {
    std::vector<std::jthread> others;
    for (std::size_t i = 1; i < streams.size(); ++i) {
      others.emplace_back([&stream = streams[i]] {
        while (stream.write_one()) {
        }
      });
    }
    // The calling thread writes too, and is the one that reports and hears a stop.
    while (true) {
      if (stop.stop_requested()) {
        cancelled = true;
        shared.halt = true;
        break;
      }
      if (!streams.front().write_one()) break;
      if (progress) progress(Bytes(shared.written), Bytes(shared.total));
    }
  }
  if (shared.failure) return fail(*shared.failure);
  Preconditioned done{.target_bytes = size, .written_bytes = shared.written, .cancelled = cancelled};
  if (cancelled) return done;
  if (progress && streams.size() > 1) progress(Bytes(shared.written), Bytes(shared.total));
  // What a pass wrote through a cache must reach the device before the runs measure it.
  if (::fdatasync(target->fd()) != 0) {
    return fail(detail::os_error(ErrorCode::io_error, info.path + ": flushing the preconditioning writes", errno));
  }
  return done;
}

}  // namespace iomark::targets
