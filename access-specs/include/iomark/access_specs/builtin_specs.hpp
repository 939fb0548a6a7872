// The built-in access specifications: IOmeter 1.1.0's own defaults
// (docs/iometer-reference.md#icf-access-specs) and the patterns storage engineers run. Names are
// stable: plans, scripts and the CLI refer to them (`iomark specs show Database`).
#pragma once

#include <span>
#include <string_view>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"

namespace iomark::access_specs {

// IOmeter 1.1.0's built-in list, in its order, without `Idle` (31 specs, exactly as the
// 1.1.0 GUI writes them to an ICF file):
// * `Default`: 2048 B, 100% of size, 67% read, 100% random, align 2048 (= size, as the
//   1.1.0 GUI initialises new lines);
// * `<S>; <R>% Read; 0% random` for S = 512 B, 4 KiB, 16 KiB, 32 KiB and R = 100,75,50,25,0,
//   with `4 KiB aligned; <R>% Read; 100% random` (R = 100,50,0; align 4096) after the
//   4 KiB group, then `64 KiB; ...` and `256 KiB; ...` for R = 100,50,0; align 0 (sector)
//   everywhere except the aligned group;
// * `All in one`: the 29 lines above in the same order; 100/29 leaves 13, so the first 13
//   lines get 4% and the other 16 get 3% (IOmeter gives the remainder to the first lines).
// Every spec: delay 0, burst 1, reply 0, default assignment NONE. Thread-safe; the data is
// built once and lives as long as the program.
[[nodiscard]] std::span<const AccessSpec> iometer_default_specs();

// Named storage patterns, in this order: Database, Fileserver, Webserver, Workstation, OLTP,
// VM 60% read, VM 40% read, Backup (classic definitions, align 0 = sector, as published),
// then `<S> random read`, `<S> random write`, `<S> sequential read`, `<S> sequential write`
// for S in 4K, 8K, 64K, 1M. These micro-benchmarks align to their own size (fio's default
// `blockalign=bs`, so `bench/` compares like with like, and no 4K I/O straddles a 4K
// physical sector on 512e drives). All default assignment NONE.
[[nodiscard]] std::span<const AccessSpec> storage_pattern_specs();

// Another name a built-in answers to.
struct SpecAlias {
  std::string_view alias;
  std::string_view spec_name;
};

// The documented aliases: "Oracle" -> "OLTP".
[[nodiscard]] std::span<const SpecAlias> builtin_spec_aliases() noexcept;

// Case-insensitive lookup over both lists (patterns first), then over the aliases.
// nullptr when unknown. The returned spec lives as long as the program.
[[nodiscard]] const AccessSpec* find_builtin_spec(std::string_view name);

// IOmeter's spec without lines: a worker assigned it does nothing in that run. It is not a
// spec of either list, never written to an ICF file, and no plan spec may take its name.
inline constexpr std::string_view kIdleSpecName = "Idle";

// The spec a command line asks for: one spec line ("8192,100,67,100,0,1,0,0", named
// "custom 8192/100/67/100/0/1/0/0") when `line` is not empty, else the built-in named `name`.
// Errors name the field ("spec line" or "spec") and say why.
[[nodiscard]] Result<AccessSpec> spec_from_name_or_line(std::string_view name, std::string_view line);

}  // namespace iomark::access_specs
