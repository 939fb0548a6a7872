#include "iomark/agent/verified_target.hpp"

namespace iomark::agent {

Result<std::string> journal_path(const targets::TargetInfo& target, const std::string& explicit_path) {
  if (!explicit_path.empty()) return explicit_path;
  if (target.kind == targets::TargetKind::block_device) {
    // Nothing is written where the operator did not point: not beside /dev nodes.
    return fail(Error(ErrorCode::invalid_argument,
                      target.path + " is a block device: name its --verify journal file (--verify-journal FILE)")
                    .in_field("verify-journal"));
  }
  return target.path + std::string(targets::kJournalSuffix);
}

Result<std::shared_ptr<VerifiedTarget>> open_verified_target(const targets::SafetyPolicy& policy,
                                                            const std::string& journal_file,
                                                            std::uint64_t target_bytes, std::uint32_t block_bytes) {
  auto journal = targets::VerifyJournal::open(policy, journal_file, target_bytes, block_bytes);
  if (!journal) return fail(journal.error());
  auto words = (*journal)->words();
  auto verified = std::make_shared<VerifiedTarget>(VerifiedTarget{std::move(*journal), workload::VerifyMap(words), block_bytes, 0});
  verified->recovered_blocks = verified->map.recover();
  return verified;
}

}  // namespace iomark::agent
