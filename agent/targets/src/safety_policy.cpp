#include "iomark/targets/safety_policy.hpp"

#include <filesystem>
#include <system_error>

namespace iomark::targets {

Result<SafetyPolicy> SafetyPolicy::create(std::span<const std::string> allowed_paths, Destructive destructive) {
  SafetyPolicy policy;
  policy.destructive_ = destructive;
  for (const std::string& path : allowed_paths) {
    std::error_code error;
    const auto canonical = std::filesystem::canonical(path, error);
    if (error) {
      return fail(Error(error == std::errc::no_such_file_or_directory ? ErrorCode::not_found : ErrorCode::io_error,
                        "cannot allow '" + path + "': " + error.message())
                      .in_field("--allow"));
    }
    policy.allowed_.push_back(canonical.string());
  }
  return policy;
}

bool SafetyPolicy::allows(std::string_view canonical_path) const noexcept {
  for (const std::string& allowed : allowed_) {
    if (covers(allowed, canonical_path)) return true;
  }
  return false;
}

bool SafetyPolicy::covers(std::string_view allowed, std::string_view canonical_path) noexcept {
  if (allowed.empty() || !canonical_path.starts_with(allowed)) return false;
  return canonical_path.size() == allowed.size() || allowed.back() == '/' || canonical_path[allowed.size()] == '/';
}

}  // namespace iomark::targets
