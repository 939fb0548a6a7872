// The agent's write scope as text: which paths an `--allow` list covers, and the words a
// refusal uses. Shared by the agent (which also resolves paths beneath the allowed
// directories' descriptors, agent/targets/safety_policy.hpp) and the controller and GUI,
// which check a plan against an agent's reported list before anything is sent
// (docs/write-scope.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace iomark {

// Why an agent refuses a mounted file system (the inventory's FileSystem::refusal).
inline constexpr std::string_view kOutsideWriteScope =
    "outside the agent's write scope: the mount point is not at or under an --allow directory";

// Whether `path` is `allowed` or lies below it, comparing whole components ("/data" covers
// "/data" and "/data/x", not "/data2"). Lexical: both should be canonical.
[[nodiscard]] bool path_within(std::string_view allowed, std::string_view path) noexcept;

// Whether any entry of `allowed` covers `path`.
[[nodiscard]] bool path_within_any(const std::vector<std::string>& allowed, std::string_view path) noexcept;

// "agent A refuses PATH: it creates, writes and deletes only at or under its --allow paths
// (X, Y); add a directory holding it to that agent's --allow to use it" (or "... it was
// started without --allow ..." when the list is empty).
[[nodiscard]] std::string write_scope_refusal(std::string_view agent, std::string_view path,
                                              const std::vector<std::string>& allowed);

}  // namespace iomark
