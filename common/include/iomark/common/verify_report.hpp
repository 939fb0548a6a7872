// What `--verify` found on one target: the counts by kind and the first few bad blocks in
// full (byte offset, expected and found). A plain value: the worker fills it, results carry
// it to the console, the JSON and (as read errors) the results.csv error columns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace iomark {

enum class VerifyFailure : std::uint8_t {
  corrupted,    // the block's checksum (or its header) does not match its content
  misdirected,  // an intact block that names another offset or another target
  stale,        // an intact block of an older generation than the last acknowledged write: a lost write
};

// "corrupted", "misdirected", "stale".
[[nodiscard]] std::string_view to_string(VerifyFailure failure) noexcept;

struct VerifyFinding {
  VerifyFailure failure{VerifyFailure::corrupted};
  std::uint64_t offset_bytes{};          // of the verify block that was read
  std::uint32_t expected_generation{};   // the last acknowledged write's generation
  std::uint32_t found_generation{};      // from the block's header (0: no header at all)
  std::uint64_t found_offset_bytes{};    // the offset the block's header names
  std::uint32_t expected_checksum{};     // corrupted: the crc32c the header stores
  std::uint32_t found_checksum{};        // corrupted: the crc32c of what was read
  friend bool operator==(const VerifyFinding&, const VerifyFinding&) = default;
};

struct VerifyReport {
  // How many findings are kept in full; the counts go on.
  static constexpr std::size_t kFindingsKept = 8;

  std::uint64_t blocks_checked{};     // verify blocks read and judged against the journal
  std::uint64_t blocks_not_judged{};  // read, but never written in this journal (or a failed write)
  std::uint64_t corrupted{};
  std::uint64_t misdirected{};
  std::uint64_t stale{};
  // Times an I/O had to take another offset because a block it touches was in flight.
  std::uint64_t busy_redraws{};
  std::vector<VerifyFinding> first_findings;  // at most kFindingsKept, in the order found

  [[nodiscard]] std::uint64_t bad_blocks() const noexcept { return corrupted + misdirected + stale; }
  // Counts the finding; keeps it in full while fewer than kFindingsKept are kept. Allocates
  // nothing once first_findings has reserved kFindingsKept.
  void add(const VerifyFinding& finding) noexcept;
  void merge(const VerifyReport& other);
  friend bool operator==(const VerifyReport&, const VerifyReport&) = default;
};

}  // namespace iomark
