#include "iomark/results/verify_summary.hpp"

#include <cstdio>

namespace iomark::results {
namespace {

std::string hex(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

std::string describe(const VerifyFinding& finding) {
  std::string line = "  " + std::string(to_string(finding.failure)) + " at byte " + std::to_string(finding.offset_bytes) + ": ";
  switch (finding.failure) {
    case VerifyFailure::corrupted:
      if (finding.expected_checksum == 0 && finding.found_checksum == 0) return line + "damaged block header";
      return line + "expected crc32c " + hex(finding.expected_checksum) + " (generation " +
             std::to_string(finding.expected_generation) + "), found " + hex(finding.found_checksum);
    case VerifyFailure::misdirected:
      if (finding.found_offset_bytes == finding.offset_bytes) {
        return line + "found a block written for another target (or under an earlier journal of this one)";
      }
      return line + "expected the block of byte " + std::to_string(finding.offset_bytes) + ", found the block of byte " +
             std::to_string(finding.found_offset_bytes) + " (generation " + std::to_string(finding.found_generation) + ")";
    case VerifyFailure::stale:
      return line + "expected generation " + std::to_string(finding.expected_generation) + ", found " +
             (finding.found_generation == 0 ? std::string("no iomark header (the write never arrived)")
                                            : "generation " + std::to_string(finding.found_generation));
  }
  return line;
}

}  // namespace

std::uint64_t bad_blocks(const RunResults& run) noexcept {
  std::uint64_t bad = 0;
  for (const auto& manager : run.managers) {
    for (const auto& worker : manager.workers) {
      for (const auto& target : worker.targets) {
        if (target.verify) bad += target.verify->bad_blocks();
      }
    }
  }
  return bad;
}

std::vector<std::string> verify_lines(const RunResults& run) {
  std::vector<std::string> lines;
  for (const auto& manager : run.managers) {
    for (const auto& worker : manager.workers) {
      for (const auto& target : worker.targets) {
        if (!target.verify) continue;
        const VerifyReport& r = *target.verify;
        lines.push_back(manager.name + "/" + worker.name + "/" + target.name + ": " + std::to_string(r.blocks_checked) +
                        " blocks checked, " + std::to_string(r.blocks_not_judged) + " not judged (never written), " +
                        std::to_string(r.busy_redraws) + " offsets redrawn (block in flight); " +
                        std::to_string(r.bad_blocks()) + " bad: " + std::to_string(r.corrupted) + " corrupted, " +
                        std::to_string(r.misdirected) + " misdirected, " + std::to_string(r.stale) + " stale");
        for (const auto& finding : r.first_findings) lines.push_back(describe(finding));
        if (r.bad_blocks() > r.first_findings.size()) {
          lines.push_back("  ... and " + std::to_string(r.bad_blocks() - r.first_findings.size()) + " more");
        }
      }
    }
  }
  return lines;
}

}  // namespace iomark::results
