#include "iomark/targets/safety_policy.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "iomark/common/host_name.hpp"
#include "iomark/common/write_scope.hpp"
#include "posix.hpp"

namespace iomark::targets {
namespace {

namespace fs = std::filesystem;

Error cannot_allow(const std::string& path, const std::error_code& error) {
  return Error(error == std::errc::no_such_file_or_directory ? ErrorCode::not_found : ErrorCode::io_error,
               "cannot allow '" + path + "': " + error.message())
      .in_field("--allow");
}

}  // namespace

Result<SafetyPolicy> SafetyPolicy::create(std::span<const std::string> allowed_paths, Destructive destructive,
                                          MissingPath missing) {
  SafetyPolicy policy;
  policy.destructive_ = destructive;
  policy.agent_name_ = local_host_name();
  for (const std::string& path : allowed_paths) {
    std::error_code error;
    fs::path canonical = fs::canonical(path, error);
    if (error == std::errc::no_such_file_or_directory && missing == MissingPath::allow_new_file) {
      // A file to be created: its directory must exist (a missing directory is the user's
      // typo, not something to create).
      const fs::path asked(path);
      const auto name = asked.filename();
      std::error_code parent_error;
      const auto parent = fs::canonical(asked.parent_path().empty() ? fs::path(".") : asked.parent_path(), parent_error);
      if (parent_error || name.empty() || name == "." || name == "..") {
        return fail(Error(ErrorCode::not_found, "cannot allow '" + path + "': its directory " +
                                                    asked.parent_path().string() + " does not exist")
                        .in_field("--allow"));
      }
      canonical = parent / name;
      error.clear();
    }
    if (error) return fail(cannot_allow(path, error));
    std::string resolved = canonical.string();
    struct stat st {};
    const bool is_directory = ::stat(resolved.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    const std::string anchor_path = is_directory ? resolved : canonical.parent_path().string();
    Fd anchor(::open(anchor_path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!anchor.valid()) return fail(Error(detail::os_error(ErrorCode::io_error, "cannot allow '" + path + "'", errno)).in_field("--allow"));
    policy.anchors_.push_back({std::make_shared<const Fd>(std::move(anchor)),
                               is_directory ? std::string() : canonical.filename().string()});
    policy.allowed_.push_back(std::move(resolved));
  }
  return policy;
}

bool SafetyPolicy::allows(std::string_view canonical_path) const noexcept {
  for (const std::string& allowed : allowed_) {
    if (covers(allowed, canonical_path)) return true;
  }
  return false;
}

bool SafetyPolicy::allows_exactly(std::string_view canonical_path) const noexcept {
  for (const std::string& allowed : allowed_) {
    if (allowed == canonical_path) return true;
  }
  return false;
}

bool SafetyPolicy::covers(std::string_view allowed, std::string_view canonical_path) noexcept {
  return path_within(allowed, canonical_path);
}

Error SafetyPolicy::refusal(std::string_view shown) const {
  return Error(ErrorCode::validation_error,
               write_scope_refusal(agent_name_.empty() ? local_host_name() : agent_name_, shown, allowed_))
      .in_field("--allow");
}

Result<std::pair<const SafetyPolicy::Anchor*, std::string>> SafetyPolicy::locate(std::string_view canonical_path) const {
  // The closest entry: a directory inside another allowed directory is anchored at itself.
  std::size_t best = allowed_.size();
  for (std::size_t i = 0; i < allowed_.size(); ++i) {
    if (covers(allowed_[i], canonical_path) && (best == allowed_.size() || allowed_[i].size() > allowed_[best].size())) {
      best = i;
    }
  }
  if (best == allowed_.size()) return fail(refusal(canonical_path));
  const Anchor& anchor = anchors_[best];
  // An allowed file or device is opened by its name in its directory (and whatever follows
  // it, should it have become a directory since); an allowed directory by the rest of the path.
  std::string relative = anchor.name + std::string(canonical_path.substr(allowed_[best].size()));
  while (relative.starts_with('/')) relative.erase(0, 1);
  return std::pair<const Anchor*, std::string>{&anchor, std::move(relative)};
}

Result<Fd> SafetyPolicy::open(std::string_view canonical_path, int flags, mode_t mode, Resolution resolution,
                              int* last_errno) const {
  if (last_errno != nullptr) *last_errno = 0;
  auto located = locate(canonical_path);
  if (!located) return fail(located.error());
  return open_beneath(located->first->directory->get(), located->second, flags, mode, canonical_path, resolution,
                      last_errno);
}

Result<Fd> SafetyPolicy::open_parent(std::string_view canonical_path) const {
  auto located = locate(canonical_path);
  if (!located) return fail(located.error());
  const auto& relative = located->second;
  const auto slash = relative.rfind('/');
  if (relative.empty()) {
    return fail(ErrorCode::invalid_argument, std::string(canonical_path) + " is an allowed directory: its parent is not");
  }
  return open_beneath(located->first->directory->get(), slash == std::string::npos ? "" : relative.substr(0, slash),
                      O_PATH | O_DIRECTORY, 0, canonical_path);
}

}  // namespace iomark::targets
