// What the operator allowed the agent to touch: `--allow PATH` (repeatable) and
// `--allow-destructive`. Built once from the agent's own command line, never from the
// controller, so a remote controller cannot widen it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"

namespace iomark::targets {

enum class Destructive : std::uint8_t {
  refuse,  // never write to a block device that is mounted, partitioned, held, signed or busy
  allow,   // --allow-destructive: the operator accepts that such a device gets overwritten
};

// The default policy allows nothing except test files (`iobw.tst`, see target.hpp) and
// refuses destructive writes. Immutable; safe to share between threads.
class SafetyPolicy {
 public:
  SafetyPolicy() = default;

  // Resolves every path (symbolic links, "..", ".") once, here, so that later checks compare
  // canonical paths. Errors (not_found, naming the path): a path that does not exist.
  [[nodiscard]] static Result<SafetyPolicy> create(std::span<const std::string> allowed_paths, Destructive destructive);

  // Whether a canonical path is an allowed path or lies below an allowed directory. Compares
  // whole components: allowing /data does not allow /data2.
  [[nodiscard]] bool allows(std::string_view canonical_path) const noexcept;
  // The same test against one canonical allowed path, for those who hold the list elsewhere
  // (an agent's Inventory::allowed_paths).
  [[nodiscard]] static bool covers(std::string_view allowed, std::string_view canonical_path) noexcept;

  [[nodiscard]] Destructive destructive() const noexcept { return destructive_; }
  [[nodiscard]] const std::vector<std::string>& allowed_paths() const noexcept { return allowed_; }

 private:
  std::vector<std::string> allowed_;
  Destructive destructive_{Destructive::refuse};
};

}  // namespace iomark::targets
