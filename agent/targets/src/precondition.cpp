#include "iomark/targets/precondition.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <memory>

#include "posix.hpp"

namespace iomark::targets {

namespace {

struct FreeDeleter {
  void operator()(std::byte* memory) const noexcept { std::free(memory); }
};

}  // namespace

Result<Preconditioned> precondition_target(std::string_view path, const PreconditionOptions& options,
                                           const SafetyPolicy& policy, const ChunkFiller& fill,
                                           const PrepareProgress& progress, std::stop_token stop) {
  if (options.passes == 0) return fail(ErrorCode::invalid_argument, std::string(path) + ": 0 preconditioning passes");
  auto target = open_target(path, {.access = AccessMode::read_write, .caching = options.caching}, policy);
  if (!target) return fail(target.error());
  const auto& info = target->info();
  const std::size_t sector = std::max<std::uint32_t>(info.sector_size_bytes, 1);
  const std::size_t block = std::max<std::size_t>(options.block_bytes / sector, 1) * sector;
  // Whole sectors only: O_DIRECT writes a device's last partial sector no more than a run reads it.
  const std::uint64_t size = info.size_bytes / sector * sector;
  if (size == 0) return fail(ErrorCode::invalid_argument, info.path + " is empty: nothing to precondition");
  const std::size_t alignment = std::max<std::size_t>(4096, std::bit_ceil(sector));
  std::unique_ptr<std::byte[], FreeDeleter> buffer(
      static_cast<std::byte*>(std::aligned_alloc(alignment, (block + alignment - 1) / alignment * alignment)));
  if (!buffer) return fail(ErrorCode::io_error, info.path + ": cannot allocate a " + detail::describe_bytes(block) + " buffer");

  Preconditioned done{.target_bytes = size, .written_bytes = 0, .cancelled = false};
  const std::uint64_t total = size * options.passes;
  for (std::uint32_t pass = 0; pass < options.passes; ++pass) {
    for (std::uint64_t offset = 0; offset < size;) {
      if (stop.stop_requested()) {
        done.cancelled = true;
        return done;
      }
      const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(block, size - offset));
      const std::span<std::byte> data(buffer.get(), length);
      if (fill) {
        fill(data);
      } else {
        std::fill(data.begin(), data.end(), static_cast<std::byte>(pass + 1));
      }
      const ssize_t written = ::pwrite(target->fd(), data.data(), data.size(), static_cast<off_t>(offset));
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        return fail(detail::os_error(ErrorCode::io_error,
                                     info.path + ": preconditioning pass " + std::to_string(pass + 1) + " of " +
                                         std::to_string(options.passes) + " failed at byte " + std::to_string(offset),
                                     written < 0 ? errno : EIO));
      }
      offset += static_cast<std::uint64_t>(written);
      done.written_bytes += static_cast<std::uint64_t>(written);
      if (progress) progress(Bytes(done.written_bytes), Bytes(total));
    }
  }
  // What a pass wrote through a cache must reach the device before the runs measure it.
  if (::fdatasync(target->fd()) != 0) {
    return fail(detail::os_error(ErrorCode::io_error, info.path + ": flushing the preconditioning writes", errno));
  }
  return done;
}

}  // namespace iomark::targets
