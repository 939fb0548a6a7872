#include "iomark/common/verify_report.hpp"

namespace iomark {

std::string_view to_string(VerifyFailure failure) noexcept {
  switch (failure) {
    case VerifyFailure::corrupted:
      return "corrupted";
    case VerifyFailure::misdirected:
      return "misdirected";
    case VerifyFailure::stale:
      return "stale";
  }
  return "unknown";
}

void VerifyReport::add(const VerifyFinding& finding) noexcept {
  switch (finding.failure) {
    case VerifyFailure::corrupted:
      ++corrupted;
      break;
    case VerifyFailure::misdirected:
      ++misdirected;
      break;
    case VerifyFailure::stale:
      ++stale;
      break;
  }
  // Within the reserved capacity push_back cannot allocate, so it cannot throw.
  if (first_findings.size() < kFindingsKept && first_findings.size() < first_findings.capacity()) {
    first_findings.push_back(finding);
  }
}

void VerifyReport::merge(const VerifyReport& other) {
  blocks_checked += other.blocks_checked;
  blocks_not_judged += other.blocks_not_judged;
  corrupted += other.corrupted;
  misdirected += other.misdirected;
  stale += other.stale;
  busy_redraws += other.busy_redraws;
  for (const auto& finding : other.first_findings) {
    if (first_findings.size() >= kFindingsKept) break;
    first_findings.push_back(finding);
  }
}

}  // namespace iomark
