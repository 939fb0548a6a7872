#include "iomark/targets/verify_journal.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "iomark/targets/target.hpp"

namespace iomark::targets {
namespace {

constexpr char kMagic[8] = {'I', 'O', 'M', 'A', 'R', 'K', 'J', '1'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 4096;  // a page, so the words start page-aligned

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t block_bytes;
  std::uint64_t target_bytes;
  std::uint32_t target_id;
  std::uint32_t clean;  // 1 once closed; 0 while a run has it open
};

Error io_failure(const std::string& what, const std::string& path) {
  return Error(ErrorCode::io_error, what + " " + path + ": " + std::strerror(errno)).in_field("verify-journal");
}

}  // namespace

Result<std::unique_ptr<VerifyJournal>> VerifyJournal::open(const SafetyPolicy& policy, const std::string& path,
                                                            std::uint64_t target_bytes, std::uint32_t block_bytes) {
  auto authorized = authorize_target(path, AccessMode::read_write, policy);
  if (!authorized) return fail(Error(authorized.error()));
  if (authorized->kind != TargetKind::file && authorized->kind != TargetKind::new_file) {
    return fail(Error(ErrorCode::invalid_argument, path + " is not a regular file: it cannot be a verify journal")
                    .in_field("verify-journal"));
  }
  auto opened = policy.open(authorized->path, O_RDWR | O_CREAT, 0644);
  if (!opened) return fail(opened.error());
  std::unique_ptr<VerifyJournal> journal(new VerifyJournal());
  journal->path_ = path;
  journal->block_bytes_ = block_bytes;
  journal->fd_ = opened->release();
  struct stat status {};
  if (::fstat(journal->fd_, &status) != 0) return fail(io_failure("cannot stat the verify journal", path));
  const std::uint64_t blocks = target_bytes / block_bytes;
  journal->mapping_bytes_ = kHeaderBytes + blocks * sizeof(std::uint32_t);
  journal->created_ = status.st_size == 0;
  if (journal->created_ && ::ftruncate(journal->fd_, static_cast<off_t>(journal->mapping_bytes_)) != 0) {
    return fail(io_failure("cannot size the verify journal", path));
  }
  if (!journal->created_ && static_cast<std::uint64_t>(status.st_size) < kHeaderBytes) {
    return fail(Error(ErrorCode::invalid_argument, path + " is not an iomark verify journal (too short)")
                    .in_field("verify-journal"));
  }
  const auto mapped_bytes = journal->created_ ? journal->mapping_bytes_ : static_cast<std::size_t>(status.st_size);
  void* mapping = ::mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, journal->fd_, 0);
  if (mapping == MAP_FAILED) return fail(io_failure("cannot map the verify journal", path));
  journal->mapping_ = mapping;
  journal->mapping_bytes_ = mapped_bytes;
  auto* header = static_cast<Header*>(mapping);
  if (journal->created_) {
    std::memcpy(header->magic, kMagic, sizeof kMagic);
    header->version = kVersion;
    header->block_bytes = block_bytes;
    header->target_bytes = target_bytes;
    // Never 0, so that a zero-filled block can never pass for one of ours.
    std::random_device entropy;
    header->target_id = std::uniform_int_distribution<std::uint32_t>(1)(entropy);
  } else {
    if (std::memcmp(header->magic, kMagic, sizeof kMagic) != 0 || header->version != kVersion) {
      return fail(Error(ErrorCode::invalid_argument, path + " is not an iomark verify journal of version 1")
                      .in_field("verify-journal"));
    }
    if (header->block_bytes != block_bytes || header->target_bytes != target_bytes ||
        mapped_bytes != kHeaderBytes + blocks * sizeof(std::uint32_t)) {
      return fail(Error(ErrorCode::invalid_argument,
                        path + " was made for a target of " + std::to_string(header->target_bytes) + " bytes in " +
                            std::to_string(header->block_bytes) + "-byte blocks, this run has " +
                            std::to_string(target_bytes) + " bytes in " + std::to_string(block_bytes) +
                            "-byte blocks; remove it to start a new journal (what it knew is then not checked)")
                      .in_field("verify-journal"));
    }
    journal->was_clean_ = header->clean == 1;
  }
  header->clean = 0;
  journal->target_id_ = header->target_id;
  journal->words_ = {reinterpret_cast<std::uint32_t*>(static_cast<std::byte*>(mapping) + kHeaderBytes),
                     static_cast<std::size_t>(blocks)};
  return journal;
}

VerifyJournal::~VerifyJournal() {
  if (mapping_ != nullptr) {
    static_cast<Header*>(mapping_)->clean = 1;
    ::msync(mapping_, mapping_bytes_, MS_SYNC);
    ::munmap(mapping_, mapping_bytes_);
  }
  if (fd_ >= 0) ::close(fd_);
}

Result<bool> VerifyJournal::remove(const SafetyPolicy& policy, const std::string& path) {
  auto authorized = authorize_target(path, AccessMode::read_write, policy);
  if (!authorized) {
    // Nothing there: nothing to remove.
    if (authorized.error().code() == ErrorCode::not_found) return false;
    return fail(authorized.error());
  }
  if (authorized->kind == TargetKind::new_file) return false;
  if (authorized->kind != TargetKind::file) {
    return fail(ErrorCode::invalid_argument, path + " is not a regular file: it is not a verify journal");
  }
  // Its directory, opened beneath the entry that allows the journal (even when only the
  // journal itself is allowed).
  const auto slash = authorized->path.rfind('/');
  auto directory = policy.open_parent(authorized->path);
  if (!directory) return fail(directory.error());
  const std::string name = authorized->path.substr(slash + 1);
  if (::unlinkat(directory->get(), name.c_str(), 0) != 0) {
    if (errno == ENOENT) return false;
    return fail(io_failure("cannot remove the verify journal", path));
  }
  return true;
}

Result<void> VerifyJournal::sync() const {
  if (::msync(mapping_, mapping_bytes_, MS_SYNC) != 0) return fail(io_failure("cannot flush the verify journal", path_));
  return {};
}

}  // namespace iomark::targets
