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
// Leaves the errno of the failed open in errno_of_last_open (O_DIRECT's EINVAL is told apart).
thread_local int errno_of_last_open = 0;

Result<Fd> open_without_atime(const SafetyPolicy& policy, const std::string& path, int flags) {
  auto fd = policy.open(path, flags | O_NOATIME, 0, Resolution::automatic, &errno_of_last_open);
  if (fd || errno_of_last_open != EPERM) return fd;
  return policy.open(path, flags, 0, Resolution::automatic, &errno_of_last_open);
}

}  // namespace

Result<AuthorizedTarget> authorize_target(std::string_view path_view, AccessMode access, const SafetyPolicy& policy) {
  const std::string path(path_view);
  std::error_code error;
  const fs::path canonical = fs::canonical(path, error);
  if (error == std::errc::no_such_file_or_directory) {
    // A file to create: its directory must exist and lie in the scope.
    const fs::path asked(path);
    const auto name = asked.filename();
    std::error_code parent_error;
    const auto parent = fs::canonical(asked.parent_path().empty() ? fs::path(".") : asked.parent_path(), parent_error);
    if (parent_error || name.empty() || name == "." || name == ".." || !fs::is_directory(parent, parent_error)) {
      return fail(ErrorCode::not_found,
                  path + ": no such file, and its directory " + asked.parent_path().string() + " does not exist");
    }
    const std::string resolved = (parent / name).string();
    if (!policy.allows(resolved)) return fail(policy.refusal(resolved == path ? path : path + " (" + resolved + ")"));
    return AuthorizedTarget{resolved, TargetKind::new_file, 0, 0};
  }
  if (error) return fail(error == std::errc::not_a_directory ? ErrorCode::not_found : ErrorCode::io_error, path + ": " + error.message());
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
  if (!policy.allows(resolved)) return fail(policy.refusal(shown));
  if (target.kind == TargetKind::file && access == AccessMode::read_write && st.st_nlink > 1 &&
      !policy.allows_exactly(resolved)) {
    return fail(Error(ErrorCode::validation_error,
                      shown + " has " + std::to_string(st.st_nlink) +
                          " hard links, and another of its names may lie outside the agent's --allow paths; the "
                          "agent writes such a file only when it is itself an --allow entry (--allow " +
                          resolved + ")")
                    .in_field("--allow"));
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

  if (authorized->kind == TargetKind::new_file) {
    return fail(ErrorCode::not_found, resolved + " does not exist yet: prepare it (prepare_test_file) and open that");
  }

  // Beneath the allowed entry's descriptor: the canonical path has no link left, so a link
  // met now means something was swapped, and it cannot lead out of the scope.
  const int flags = (options.access == AccessMode::read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC;
  bool direct = options.caching != Caching::buffered;
  auto opened = open_without_atime(policy, resolved, flags | (direct ? O_DIRECT : 0));
  if (!opened && opened.error().code() == ErrorCode::io_error && errno_of_last_open == EINVAL && direct) {
    if (options.caching != Caching::direct_or_buffered) {
      return fail(Error(ErrorCode::unsupported,
                        resolved + ": the file system refuses O_DIRECT (direct I/O); pass --buffered-io to "
                                   "measure through the page cache instead")
                      .in_field("--buffered-io"));
    }
    direct = false;
    opened = open_without_atime(policy, resolved, flags);
  }
  if (!opened) return fail(opened.error());
  detail::UniqueFd fd = std::move(*opened);

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
