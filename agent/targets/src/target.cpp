#include "iomark/targets/target.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <filesystem>

#include "iomark/targets/block_device.hpp"
#include "posix.hpp"

namespace iomark::targets {
namespace {

namespace fs = std::filesystem;

// "a", "a and b", "a, b and c".
std::string join_reasons(const std::vector<std::string>& reasons) {
  std::string text;
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    if (i > 0) text += i + 1 == reasons.size() ? " and " : ", ";
    text += reasons[i];
  }
  return text;
}

// A benchmark's reads should not change the access times of the user's files and devices, and
// skipping the update takes a check off every read's path (about 2% of a 4 KiB read from
// zram). The kernel allows O_NOATIME only to the owner or CAP_FOWNER; anyone else opens as usual.
int open_without_atime(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_NOATIME);
  if (fd >= 0 || errno != EPERM) return fd;
  return ::open(path.c_str(), flags);
}

}  // namespace

Result<AuthorizedTarget> authorize_target(std::string_view path_view, AccessMode access, const SafetyPolicy& policy) {
  const std::string path(path_view);
  std::error_code error;
  const fs::path canonical = fs::canonical(path, error);
  if (error) {
    return fail(error == std::errc::no_such_file_or_directory ? ErrorCode::not_found : ErrorCode::io_error,
                path + ": " + error.message());
  }
  const std::string resolved = canonical.string();
  const std::string shown = resolved == path ? path : path + " (resolves to " + resolved + ")";

  struct stat st {};
  if (::stat(resolved.c_str(), &st) != 0) return fail(detail::os_error(ErrorCode::io_error, shown, errno));
  AuthorizedTarget target{resolved, TargetKind::file, st.st_dev, st.st_ino};
  if (S_ISBLK(st.st_mode)) {
    target.kind = TargetKind::block_device;
  } else if (S_ISDIR(st.st_mode)) {
    target.kind = TargetKind::directory;
  } else if (!S_ISREG(st.st_mode)) {
    return fail(ErrorCode::invalid_argument, shown + " is neither a block device, a regular file nor a directory");
  }

  // Directories are where test files get created; a test file is ours unless another name
  // (a hard link) could make it someone else's data.
  const bool named_test_file = target.kind == TargetKind::file && canonical.filename() == kTestFileName;
  const bool test_file = named_test_file && st.st_nlink == 1;
  if (!policy.allows(resolved) && !test_file && target.kind != TargetKind::directory) {
    std::string message = shown + " is not allowed: the agent only uses test files (" + std::string(kTestFileName) +
                          ") and paths its operator allowed; start iomark-agent with --allow " + resolved +
                          " to use it";
    if (named_test_file) message += " (it has " + std::to_string(st.st_nlink) + " hard links, so it is not a test file)";
    return fail(Error(ErrorCode::validation_error, std::move(message)).in_field("--allow"));
  }

  if (target.kind == TargetKind::block_device && access == AccessMode::read_write &&
      policy.destructive() == Destructive::refuse) {
    auto usage = inspect_block_device(resolved);
    if (!usage) return fail(usage.error());
    if (!usage->is_blank()) {
      return fail(Error(ErrorCode::validation_error,
                        shown + " " + join_reasons(usage->reasons()) + "; pass --allow-destructive to overwrite it")
                      .in_field("--allow-destructive"));
    }
  }
  return target;
}

OpenTarget& OpenTarget::operator=(OpenTarget&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    info_ = std::move(other.info_);
  }
  return *this;
}

OpenTarget::~OpenTarget() {
  if (fd_ >= 0) ::close(fd_);
}

Result<OpenTarget> open_target(std::string_view path, const OpenOptions& options, const SafetyPolicy& policy) {
  if (options.file_sector_size_bytes && *options.file_sector_size_bytes == 0) {
    return fail(ErrorCode::invalid_argument, "the sector size of a file target must not be 0");
  }
  auto authorized = authorize_target(path, options.access, policy);
  if (!authorized) return fail(authorized.error());
  const std::string& resolved = authorized->path;
  if (authorized->kind == TargetKind::directory) {
    return fail(ErrorCode::invalid_argument, resolved + " is a directory: prepare its test file (" + resolved + "/" +
                                                 std::string(kTestFileName) + ") and open that");
  }

  // O_NOFOLLOW: the canonical path has no link left, so a link now means it was swapped.
  const int flags = (options.access == AccessMode::read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOFOLLOW;
  bool direct = options.caching != Caching::buffered;
  detail::UniqueFd fd(open_without_atime(resolved, flags | (direct ? O_DIRECT : 0)));
  if (!fd.valid() && errno == EINVAL && direct) {
    if (options.caching != Caching::direct_or_buffered) {
      return fail(Error(ErrorCode::unsupported,
                        resolved + ": the file system refuses O_DIRECT (direct I/O); pass --buffered-io to "
                                   "measure through the page cache instead")
                      .in_field("--buffered-io"));
    }
    direct = false;
    fd.reset(open_without_atime(resolved, flags));
  }
  if (!fd.valid()) return fail(detail::os_error(ErrorCode::io_error, "cannot open " + resolved, errno));

  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return fail(detail::os_error(ErrorCode::io_error, resolved, errno));
  if (st.st_dev != authorized->device_id || st.st_ino != authorized->inode) {
    return fail(ErrorCode::validation_error, resolved + " was replaced while it was being opened; try again");
  }

  TargetInfo info{resolved, authorized->kind, 0, 0, direct};
  if (authorized->kind == TargetKind::block_device) {
    int logical_block = 0;
    std::uint64_t size = 0;
    if (::ioctl(fd.get(), BLKSSZGET, &logical_block) != 0 || logical_block <= 0) {
      return fail(detail::os_error(ErrorCode::io_error, resolved + ": cannot read the logical block size", errno));
    }
    if (::ioctl(fd.get(), BLKGETSIZE64, &size) != 0) {
      return fail(detail::os_error(ErrorCode::io_error, resolved + ": cannot read the size", errno));
    }
    info.sector_size_bytes = static_cast<std::uint32_t>(logical_block);
    info.size_bytes = size;
  } else {
    info.size_bytes = static_cast<std::uint64_t>(st.st_size);
    if (options.file_sector_size_bytes) {
      info.sector_size_bytes = *options.file_sector_size_bytes;
    } else {
      struct statvfs vfs {};
      if (::fstatvfs(fd.get(), &vfs) != 0) {
        return fail(detail::os_error(ErrorCode::io_error, resolved + ": cannot read the file system block size", errno));
      }
      info.sector_size_bytes = static_cast<std::uint32_t>(vfs.f_bsize);
    }
  }
  return OpenTarget(fd.release(), std::move(info));
}

}  // namespace iomark::targets
