// The built-in access specifications: IOmeter 1.1.0's own defaults (iometer-spec §1.6)
// and the patterns storage engineers run. Names are stable: plans, scripts and the CLI
// refer to them (`iomark specs show Database`).
#pragma once

#include <span>
#include <string_view>

#include "iomark/access_specs/access_spec.hpp"

namespace iomark::access_specs {

// IOmeter 1.1.0's built-in list, in its order, without `Idle`: `Default`,
// `512 B; 100% Read; 0% random` ... `All in one`.
[[nodiscard]] std::span<const AccessSpec> iometer_default_specs();

// Named storage patterns: Database, Fileserver, Webserver, Workstation, OLTP, VM 60% read,
// VM 40% read, Backup, and 4K/8K/64K/1M random/sequential read/write.
[[nodiscard]] std::span<const AccessSpec> storage_pattern_specs();

// Case-insensitive lookup over both lists (patterns first); also accepts the documented
// aliases (e.g. "Oracle" for OLTP). nullptr when unknown.
[[nodiscard]] const AccessSpec* find_builtin_spec(std::string_view name);

}  // namespace iomark::access_specs
