#include "iomark/results/precondition_writes.hpp"

#include "iomark/access_specs/pts_iops.hpp"

namespace iomark::results {

std::string precondition_writes_text(const PreconditionRecord& record) {
  if (record.spec) return "the writes of '" + record.spec->name + "'";
  return access_specs::pts_block_text(record.block_bytes) + " sequential writes";
}

}  // namespace iomark::results
