#include "iomark/targets/test_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>

#include "posix.hpp"

namespace iomark::targets {
namespace {

// IOmeter's default pattern for preparation: one byte value per chunk.
ChunkFiller default_filler() {
  return [state = std::uint64_t{0x2545F4914F6CDD1D}](std::span<std::byte> chunk) mutable {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    std::fill(chunk.begin(), chunk.end(), static_cast<std::byte>(state >> 56));
  };
}

std::uint64_t free_bytes(const struct statvfs& vfs) { return std::uint64_t{vfs.f_bavail} * vfs.f_frsize; }

// Undoes a failed preparation: removes a file this call created (by its name in the
// directory's descriptor, and only while that name is still the file created), cuts back one
// it grew.
class Rollback {
 public:
  Rollback(int directory_fd, std::string name, int fd, bool created, std::uint64_t original_size)
      : directory_fd_(directory_fd), name_(std::move(name)), fd_(fd), created_(created), original_size_(original_size) {}
  Rollback(const Rollback&) = delete;
  Rollback& operator=(const Rollback&) = delete;
  ~Rollback() {
    if (!armed_) return;
    if (created_) {
      struct stat mine {};
      struct stat named {};
      if (::fstat(fd_, &mine) == 0 && ::fstatat(directory_fd_, name_.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
          mine.st_dev == named.st_dev && mine.st_ino == named.st_ino) {
        ::unlinkat(directory_fd_, name_.c_str(), 0);
      }
    } else {
      // Best effort: the error being returned already names the file.
      [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(original_size_));
    }
  }
  void disarm() noexcept { armed_ = false; }

 private:
  int directory_fd_;
  std::string name_;
  int fd_;
  bool created_;
  std::uint64_t original_size_;
  bool armed_{true};
};

constexpr std::uint64_t kMaximumMarginBytes = std::uint64_t{1} << 30;

}  // namespace

std::uint64_t free_space_margin(std::uint64_t total_bytes) noexcept {
  return std::min(total_bytes / 20, kMaximumMarginBytes);
}

Result<PreparedTestFile> prepare_test_file(std::string_view directory, const TestFileOptions& options,
                                           const SafetyPolicy& policy, const ChunkFiller& fill,
                                           const PrepareProgress& progress, std::stop_token stop) {
  if (options.sector_size_bytes && *options.sector_size_bytes == 0) {
    return fail(ErrorCode::invalid_argument, "the sector size of a test file must not be 0");
  }
  const std::string& name = options.file_name;
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
    return fail(ErrorCode::invalid_argument, "'" + name + "' is not a file name");
  }
  std::error_code resolve_error;
  const auto canonical_dir = std::filesystem::canonical(std::string(directory), resolve_error);
  if (resolve_error) {
    return fail(resolve_error == std::errc::no_such_file_or_directory ? ErrorCode::not_found : ErrorCode::io_error,
                std::string(directory) + ": " + resolve_error.message());
  }
  const std::string dir_path = canonical_dir.string();
  struct stat dir_st {};
  if (::stat(dir_path.c_str(), &dir_st) != 0) return fail(detail::os_error(ErrorCode::io_error, dir_path, errno));
  if (!S_ISDIR(dir_st.st_mode)) {
    return fail(ErrorCode::invalid_argument, dir_path + " is not a directory: test files are prepared in directories");
  }
  const std::string path = (dir_path.ends_with('/') ? dir_path : dir_path + "/") + name;
  // The file must lie in the scope: below an allowed directory, or be an allowed entry itself
  // (a --target file that does not exist yet). A test file's refusal names the directory asked for.
  if (!policy.allows(path)) {
    return fail(policy.refusal(name == kTestFileName ? std::string(directory) : path));
  }
  auto directory_fd = policy.open_parent(path);
  if (!directory_fd) return fail(directory_fd.error());
  struct stat opened_dir {};
  if (::fstat(directory_fd->get(), &opened_dir) != 0 || opened_dir.st_dev != dir_st.st_dev ||
      opened_dir.st_ino != dir_st.st_ino) {
    return fail(ErrorCode::validation_error, dir_path + " was replaced while it was being opened; try again");
  }

  // An existing file must be a regular file in the scope (a link is followed only while it
  // stays beneath the allowed directory), singly linked unless it is itself an --allow entry.
  struct stat st {};
  bool existed = false;
  std::uint64_t current = 0;
  int open_errno = 0;
  auto existing = policy.open(path, O_PATH, 0, Resolution::automatic, &open_errno);
  if (existing) {
    existed = true;
    if (::fstat(existing->get(), &st) != 0) return fail(detail::os_error(ErrorCode::io_error, path, errno));
    if (!S_ISREG(st.st_mode)) return fail(ErrorCode::validation_error, path + " exists and is not a regular file");
    if (st.st_nlink > 1 && !policy.allows_exactly(path)) {
      return fail(Error(ErrorCode::validation_error,
                        path + " has " + std::to_string(st.st_nlink) +
                            " hard links, so it may be someone's data outside the agent's --allow paths; remove it "
                            "or the links, or allow the file itself (--allow " + path + ")")
                      .in_field("--allow"));
    }
    current = static_cast<std::uint64_t>(st.st_size);
  } else if (open_errno != ENOENT) {
    return fail(existing.error());
  }

  struct statvfs vfs {};
  if (::fstatvfs(directory_fd->get(), &vfs) != 0) return fail(detail::os_error(ErrorCode::io_error, dir_path, errno));
  const std::uint64_t sector = options.sector_size_bytes.value_or(static_cast<std::uint32_t>(vfs.f_bsize));
  const bool fill_file_system = options.maximum_size_sectors == 0;
  const std::uint64_t total = std::uint64_t{vfs.f_blocks} * vfs.f_frsize;
  const std::uint64_t margin = free_space_margin(total);
  const std::uint64_t usable = free_bytes(vfs) > margin ? free_bytes(vfs) - margin : 0;
  const auto margin_text = [&] {
    return detail::describe_bytes(margin) + " kept free (5% of the file system or 1 GiB, whichever is less)";
  };

  std::uint64_t required = 0;
  if (!fill_file_system) {
    std::uint64_t sectors = 0;
    if (__builtin_add_overflow(options.starting_sector, options.maximum_size_sectors, &sectors) ||
        __builtin_mul_overflow(sectors, sector, &required)) {
      return fail(ErrorCode::invalid_argument, "starting sector + maximum size overflow 64-bit byte offsets");
    }
  } else if (current > 0) {
    // "Whole disk" names no size to grow to, and IOmeter never resizes an existing test file.
    required = current;
  } else if (vfs.f_blocks == 0) {
    // ramfs and some pseudo file systems report no capacity: "all of it" would be all the RAM.
    return fail(ErrorCode::invalid_argument, path + ": the file system reports no capacity, so a test file "
                                                    "cannot fill it; set Maximum Disk Size");
  } else {
    required = usable / sector * sector;
    if (required == 0) {
      return fail(ErrorCode::io_error, path + ": the file system has no free space for a test file (" +
                                           detail::describe_bytes(free_bytes(vfs)) + " free, " + margin_text() + ")");
    }
  }
  const auto result = [&](std::uint64_t size, PrepareOutcome outcome, bool direct) {
    return PreparedTestFile{path, size, static_cast<std::uint32_t>(sector), outcome, direct};
  };
  if (current >= required) return result(current, PrepareOutcome::reused, false);

  // Resume on a sector boundary: O_DIRECT writes must start aligned.
  const std::uint64_t begin = current / sector * sector;
  // A file system that reports no capacity (ramfs) cannot be checked up front.
  if (!fill_file_system && vfs.f_blocks != 0 && required - begin > usable) {
    return fail(ErrorCode::io_error, path + ": not enough space for the test file: it needs " +
                                         detail::describe_bytes(required - begin) + " more, the file system has " +
                                         detail::describe_bytes(free_bytes(vfs)) + " free with " + margin_text() +
                                         "; lower Maximum Disk Size or free some space");
  }

  bool direct = options.caching != Caching::buffered;
  const auto open_file = [&](bool with_direct) -> Result<Fd> {
    const int flags = O_WRONLY | (with_direct ? O_DIRECT : 0);
    if (existed) return policy.open(path, flags, 0, Resolution::automatic, &open_errno);
    Fd created(::openat(directory_fd->get(), name.c_str(), flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    open_errno = created.valid() ? 0 : errno;
    if (!created.valid()) return fail(detail::os_error(ErrorCode::io_error, "cannot create " + path, open_errno));
    return created;
  };
  auto opened = open_file(direct);
  if (!opened && open_errno == EINVAL && direct) {
    // ramfs and others create the file before refusing O_DIRECT.
    if (!existed) ::unlinkat(directory_fd->get(), name.c_str(), 0);
    if (options.caching != Caching::direct_or_buffered) {
      return fail(Error(ErrorCode::unsupported,
                        path + ": the file system refuses O_DIRECT (direct I/O); pass --buffered-io to "
                               "prepare and measure through the page cache instead")
                      .in_field("--buffered-io"));
    }
    direct = false;
    opened = open_file(false);
  }
  if (!opened) return fail(opened.error());
  detail::UniqueFd fd = std::move(*opened);
  if (existed) {
    struct stat now {};
    if (::fstat(fd.get(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
      return fail(ErrorCode::validation_error, path + " was replaced while it was being opened; try again");
    }
  }
  Rollback rollback(directory_fd->get(), name, fd.get(), !existed, current);

  const std::size_t chunk = std::max<std::uint64_t>(options.chunk_bytes / sector, 1) * sector;
  const auto buffer = detail::direct_io_buffer(sector, chunk);
  if (!buffer) return fail(ErrorCode::io_error, path + ": cannot allocate a " + detail::describe_bytes(chunk) + " buffer");
  const ChunkFiller& filler = fill ? fill : default_filler();

  std::uint64_t offset = begin;
  bool stopped_by_space = false;
  while (offset < required) {
    if (stop.stop_requested()) {
      const std::uint64_t size = std::max(current, offset);
      if (size == 0 && !existed) return result(0, PrepareOutcome::cancelled, direct);  // rollback removes it
      rollback.disarm();
      return result(size, PrepareOutcome::cancelled, direct);
    }
    // In "whole file system" mode a full file system ends the file: as Dynamo, fill what is
    // left sector by sector, then stop.
    const std::size_t length =
        static_cast<std::size_t>(std::min<std::uint64_t>(stopped_by_space ? sector : chunk, required - offset));
    const std::span<std::byte> data(buffer.get(), length);
    filler(data);
    const auto [written, error] = detail::write_fully(fd.get(), data, offset);
    offset += written;
    if (error == ENOSPC && fill_file_system) {
      if (stopped_by_space) break;
      stopped_by_space = true;
      continue;
    }
    if (error == ENOSPC) {
      struct statvfs now {};
      const std::uint64_t now_free = ::fstatvfs(fd.get(), &now) == 0 ? free_bytes(now) : 0;
      return fail(ErrorCode::io_error, path + ": the file system ran out of space after " +
                                           detail::describe_bytes(offset) + " of " + detail::describe_bytes(required) +
                                           " (" + detail::describe_bytes(now_free) +
                                           " free now); lower Maximum Disk Size or free some space");
    }
    if (error != 0) {
      return fail(detail::os_error(ErrorCode::io_error,
                                   path + ": writing the test file failed at byte " + std::to_string(offset), error));
    }
    if (progress) progress(Bytes(offset), Bytes(required));
  }
  if (stopped_by_space) {
    // A short buffered write can end mid-sector; keep whole sectors only.
    offset = offset / sector * sector;
    if (offset == 0) {
      return fail(ErrorCode::io_error, path + ": the file system has no free space for a test file");
    }
    if (::ftruncate(fd.get(), static_cast<off_t>(offset)) != 0) {
      return fail(detail::os_error(ErrorCode::io_error, path + ": cannot trim the test file", errno));
    }
    if (progress) progress(Bytes(offset), Bytes(offset));
  }
  if (::fdatasync(fd.get()) != 0) return fail(detail::os_error(ErrorCode::io_error, path + ": fdatasync failed", errno));
  rollback.disarm();
  return result(std::max(current, offset), existed && current > 0 ? PrepareOutcome::grown : PrepareOutcome::created,
                direct);
}

}  // namespace iomark::targets
