// What the operator allowed the agent to touch: `--allow PATH` (repeatable) and
// `--allow-destructive`. Built once from the agent's own command line, never from the
// controller, so a remote controller cannot widen it.
//
// The allow list is THE write scope (docs/write-scope.md): the agent creates, extends, writes
// or deletes only paths at or under an allowed entry, its own test files (iobw.tst) and
// --verify journals included. `--allow /` allows everything, as before the scope existed.
// Each allowed entry is held open (an O_PATH descriptor of the directory, or of the parent
// of an allowed file or device), and every target is opened beneath that descriptor
// (beneath.hpp), so symbolic links, ".." and a directory swapped between check and open
// cannot lead out of it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/targets/beneath.hpp"

namespace iomark::targets {

enum class Destructive : std::uint8_t {
  refuse,  // never write to a block device that is mounted, partitioned, held, signed or busy
  allow,   // --allow-destructive: the operator accepts that such a device gets overwritten
};

// An allowed path that does not exist yet.
enum class MissingPath : std::uint8_t {
  refuse,          // not_found (the agent daemon: a typo in --allow is an error)
  allow_new_file,  // allowed when its directory exists: the file is created at the size asked
                   // (the embedded agent of `iomark run --target NEW.dat`)
};

// The default policy allows nothing and refuses destructive writes. Immutable after
// set_agent_name; safe to share between threads (copies share the held descriptors).
class SafetyPolicy {
 public:
  SafetyPolicy() = default;

  // Resolves every path (symbolic links, "..", ".") once, here, so that later checks compare
  // canonical paths, and opens each entry's anchor directory. Errors (naming the path, field
  // --allow): not_found for a path that does not exist (with MissingPath::allow_new_file: whose
  // directory does not exist), io_error for one that cannot be resolved or opened.
  [[nodiscard]] static Result<SafetyPolicy> create(std::span<const std::string> allowed_paths, Destructive destructive,
                                                   MissingPath missing = MissingPath::refuse);

  // Whether a canonical path is an allowed path or lies below an allowed directory. Compares
  // whole components: allowing /data does not allow /data2.
  [[nodiscard]] bool allows(std::string_view canonical_path) const noexcept;
  // Whether a canonical path is itself one of the allowed entries (a file with several hard
  // links is written only then: its other names may lie outside the scope).
  [[nodiscard]] bool allows_exactly(std::string_view canonical_path) const noexcept;
  // The same test against one canonical allowed path, for those who hold the list elsewhere
  // (an agent's Inventory::allowed_paths).
  [[nodiscard]] static bool covers(std::string_view allowed, std::string_view canonical_path) noexcept;

  // Opens `canonical_path` (which allows() must accept) beneath the descriptor of the allowed
  // entry that covers it, with open(2) `flags` and `mode` (beneath.hpp). Errors: the refusal
  // (validation_error, field --allow) when no entry covers it, and open_beneath's.
  // `last_errno` as open_beneath's.
  [[nodiscard]] Result<Fd> open(std::string_view canonical_path, int flags, mode_t mode = 0,
                                Resolution resolution = Resolution::automatic, int* last_errno = nullptr) const;

  // The directory holding `canonical_path` (which allows() must accept), as an O_PATH
  // descriptor opened beneath the allowed entry that covers the path: where a file of the
  // scope is created or removed by name (openat, unlinkat), even when only the file itself is
  // allowed. Errors as open().
  [[nodiscard]] Result<Fd> open_parent(std::string_view canonical_path) const;

  // The refusal of `shown` (the path as asked, and what it resolved to): names this agent,
  // the path and the allow list. validation_error in field --allow.
  [[nodiscard]] Error refusal(std::string_view shown) const;

  // The name refusals give this agent; the host name unless set.
  void set_agent_name(std::string name) { agent_name_ = std::move(name); }
  [[nodiscard]] const std::string& agent_name() const noexcept { return agent_name_; }

  [[nodiscard]] Destructive destructive() const noexcept { return destructive_; }
  [[nodiscard]] const std::vector<std::string>& allowed_paths() const noexcept { return allowed_; }

 private:
  // What an entry is opened beneath: the directory itself (name empty), or the directory
  // holding an allowed file or device (name: its last component).
  struct Anchor {
    std::shared_ptr<const Fd> directory;
    std::string name;
  };

  // The closest entry covering `canonical_path` and the path relative to its anchor.
  [[nodiscard]] Result<std::pair<const Anchor*, std::string>> locate(std::string_view canonical_path) const;

  std::vector<std::string> allowed_;
  std::vector<Anchor> anchors_;  // one per allowed_ entry
  std::string agent_name_;
  Destructive destructive_{Destructive::refuse};
};

}  // namespace iomark::targets
