// Creating engines: by kind (`--engine`), or the best one this machine can set up.
//
// Compile options decide only what exists (every back end is built on Linux); what runs is
// decided at run time by actually setting each engine up, because io_uring in particular
// can be present yet refused (sysctl kernel.io_uring_disabled, seccomp in containers,
// RLIMIT_MEMLOCK on old kernels) and libaio can run out of aio-max-nr.
//
// Threadpool locking: its submission and completion queues are each guarded by one mutex
// held for a few instructions (a push or pop on a preallocated ring), and helpers and the
// worker sleep on condition variables. It is the only engine whose hot path locks; it is the
// portable fallback, where a thread hand-off per I/O costs far more than the lock.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/engine/engine_kind.hpp"
#include "iomark/engine/fault_injection.hpp"
#include "iomark/engine/io_engine.hpp"

namespace iomark::engine {

// A new, unprepared engine of the given kind. Never null.
[[nodiscard]] std::unique_ptr<IoEngine> make_engine(EngineKind kind);

// The outcome of trying to set one engine up.
struct EngineProbe {
  EngineKind kind{EngineKind::sync};
  bool available{};
  std::string reason;  // why not, when unavailable (e.g. "io_uring_setup: Operation not permitted")
};

// Tries every engine of kProbeOrder with a small queue depth, in that order, and reports
// each. Cold path: creates and destroys kernel objects and threads.
[[nodiscard]] std::vector<EngineProbe> probe_engines();

struct EngineSelection {
  std::unique_ptr<IoEngine> engine;  // prepared with the requested options
  std::vector<EngineProbe> tried;    // every engine tried, the chosen one last
};

// The first engine of kProbeOrder that prepares successfully with `options`. Fails only if
// none does (sync can fail only on invalid options).
[[nodiscard]] Result<EngineSelection> make_best_engine(const EngineOptions& options);

// make_engine(kind) + prepare(options), with the engine named in the error.
[[nodiscard]] Result<std::unique_ptr<IoEngine>> make_prepared_engine(EngineKind kind,
                                                                     const EngineOptions& options);

// What an `--engine` value names: a back end, or the fault-injection test tool.
struct EngineSpec {
  EngineKind kind{EngineKind::sync};
  std::optional<FaultPlan> faults;  // set: the fault-injecting engine (fault_injection.hpp)
  friend bool operator==(const EngineSpec&, const EngineSpec&) = default;
};

// parse_engine_kind's names, or a fault-injection name ("fault-eio-every-10"); the errors of
// the one the text looks like.
[[nodiscard]] Result<EngineSpec> parse_engine_spec(std::string_view text);
// The name parse_engine_spec reads back.
[[nodiscard]] std::string to_string(const EngineSpec& spec);
// The engine `spec` names, prepared with `options`.
[[nodiscard]] Result<std::unique_ptr<IoEngine>> make_prepared_engine(const EngineSpec& spec,
                                                                     const EngineOptions& options);

}  // namespace iomark::engine
