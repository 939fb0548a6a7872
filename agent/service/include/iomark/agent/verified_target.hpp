// `--verify` state of one target, shared by every worker of a run that drives it: the
// journal file and the VerifyMap over its words (verify_map.hpp says how workers share it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/targets/target.hpp"
#include "iomark/targets/verify_journal.hpp"
#include "iomark/workload/verify_map.hpp"

namespace iomark::agent {

struct VerifiedTarget {
  std::unique_ptr<targets::VerifyJournal> journal;
  workload::VerifyMap map;
  std::uint32_t block_bytes{};
  std::uint64_t recovered_blocks{};  // left in flight by an unclean stop: now unknown
};

// Where the journal of `target` lives: `explicit_path` when given, else next to a file target.
// Errors (invalid_argument): a block device without an explicit path.
[[nodiscard]] Result<std::string> journal_path(const targets::TargetInfo& target, const std::string& explicit_path);

// Opens (or creates) the journal, in the policy's write scope, and recovers what an unclean
// stop left in flight.
[[nodiscard]] Result<std::shared_ptr<VerifiedTarget>> open_verified_target(const targets::SafetyPolicy& policy,
                                                                          const std::string& journal_file,
                                                                          std::uint64_t target_bytes,
                                                                          std::uint32_t block_bytes);

}  // namespace iomark::agent
