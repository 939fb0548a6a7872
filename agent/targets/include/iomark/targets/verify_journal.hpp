// `--verify`'s journal: the write generation of every verify block of one target, kept in a
// file so that a later run (after a normal stop, an agent restart or a power cut on the array)
// checks what is on disk (vdbench's journal idea).
//
// Where: `<target>.iomark-journal` next to a file target (or next to iobw.tst), or the path
// the operator names (--verify-journal; required for block devices: nothing is written where
// the operator did not point). Either way the journal lies in the agent's write scope: it is
// opened, created and removed beneath an allowed entry (safety_policy.hpp,
// docs/write-scope.md).
//
// Layout: a 4 KiB header page (magic "IOMARKJ1", version, verify block size, target size,
// target id, clean flag), then one little-endian u32 per verify block (workload::VerifyMap's
// words). The file is mapped shared, so every update the workers make is in the page cache
// at once and survives the agent being killed; it is msync'ed when the journal is closed
// (and by sync()). A host crash can lose the journal's last updates; the check then sees
// blocks newer than the journal, which it accepts (verify_block.hpp).
//
// Not thread-safe itself; the words are shared through VerifyMap's atomics.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"
#include "iomark/targets/safety_policy.hpp"

namespace iomark::targets {

inline constexpr std::string_view kJournalSuffix = ".iomark-journal";

class VerifyJournal {
 public:
  // Opens the journal at `path`, or creates it (all blocks never written, a fresh random
  // target id) when there is none. An existing journal must describe the same target size and
  // block size. Errors: the policy's refusal (validation_error, field --allow) for a path
  // outside the scope or a journal with several hard links, io_error (cannot create, map or
  // size it), invalid_argument (not a journal, another version, or made for another size:
  // names both and how to start afresh).
  [[nodiscard]] static Result<std::unique_ptr<VerifyJournal>> open(const SafetyPolicy& policy, const std::string& path,
                                                                   std::uint64_t target_bytes,
                                                                   std::uint32_t block_bytes);

  // Removes the journal at `path` if there is one and it lies in the scope. Returns whether a
  // file was removed. Errors: the policy's refusal, io_error.
  [[nodiscard]] static Result<bool> remove(const SafetyPolicy& policy, const std::string& path);
  VerifyJournal(const VerifyJournal&) = delete;
  VerifyJournal& operator=(const VerifyJournal&) = delete;
  ~VerifyJournal();  // marks the journal clean, msyncs and unmaps

  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] std::uint32_t target_id() const noexcept { return target_id_; }
  [[nodiscard]] std::uint32_t block_bytes() const noexcept { return block_bytes_; }
  // Whether open() made a new journal, and whether an existing one was closed cleanly last time.
  [[nodiscard]] bool created() const noexcept { return created_; }
  [[nodiscard]] bool was_clean() const noexcept { return was_clean_; }
  // One word per block: what VerifyMap works on. Valid while the journal lives.
  [[nodiscard]] std::span<std::uint32_t> words() const noexcept { return words_; }

  // Flushes the mapping to the file (msync). Errors: io_error.
  [[nodiscard]] Result<void> sync() const;

 private:
  VerifyJournal() = default;

  std::string path_;
  int fd_{-1};
  void* mapping_{};
  std::size_t mapping_bytes_{};
  std::span<std::uint32_t> words_;
  std::uint32_t target_id_{};
  std::uint32_t block_bytes_{};
  bool created_{};
  bool was_clean_{true};
};

}  // namespace iomark::targets
