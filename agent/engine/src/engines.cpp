#include "iomark/engine/engines.hpp"

#include "engine_internals.hpp"

namespace iomark::engine {
namespace {

// Enough to exercise setup (ring or context creation, helper threads) without holding
// much kernel memory while probing.
constexpr std::uint32_t kProbeQueueDepth = 4;

}  // namespace

std::unique_ptr<IoEngine> make_engine(EngineKind kind) {
  switch (kind) {
    case EngineKind::io_uring:
      return detail::make_io_uring_engine();
    case EngineKind::linux_aio:
      return detail::make_linux_aio_engine();
    case EngineKind::threadpool:
      return detail::make_threadpool_engine();
    case EngineKind::sync:
      return detail::make_sync_engine();
    case EngineKind::null:
      return detail::make_null_engine();
  }
  return detail::make_sync_engine();
}

Result<std::unique_ptr<IoEngine>> make_prepared_engine(EngineKind kind,
                                                       const EngineOptions& options) {
  auto engine = make_engine(kind);
  if (auto prepared = engine->prepare(options); !prepared) return tl::unexpected(prepared.error());
  return engine;
}

Result<EngineSpec> parse_engine_spec(std::string_view text) {
  if (text.starts_with("fault")) {
    auto plan = parse_fault_plan(text);
    if (!plan) return tl::unexpected(plan.error());
    return EngineSpec{EngineKind::sync, *plan};
  }
  auto kind = parse_engine_kind(text);
  if (!kind) return tl::unexpected(kind.error());
  return EngineSpec{*kind, std::nullopt};
}

std::string to_string(const EngineSpec& spec) {
  return spec.faults ? fault_plan_name(*spec.faults) : std::string(to_string(spec.kind));
}

Result<std::unique_ptr<IoEngine>> make_prepared_engine(const EngineSpec& spec, const EngineOptions& options) {
  if (!spec.faults) return make_prepared_engine(spec.kind, options);
  auto engine = make_fault_injecting_engine(*spec.faults);
  if (auto prepared = engine->prepare(options); !prepared) return tl::unexpected(prepared.error());
  return engine;
}

std::vector<EngineProbe> probe_engines() {
  std::vector<EngineProbe> probes;
  EngineOptions options;
  options.queue_depth = kProbeQueueDepth;
  for (const EngineKind kind : kProbeOrder) {
    auto engine = make_prepared_engine(kind, options);
    probes.push_back({kind, engine.has_value(), engine ? std::string() : engine.error().message()});
  }
  return probes;
}

Result<EngineSelection> make_best_engine(const EngineOptions& options) {
  EngineSelection selection;
  std::string reasons;
  for (const EngineKind kind : kProbeOrder) {
    auto engine = make_prepared_engine(kind, options);
    if (engine) {
      selection.tried.push_back({kind, true, {}});
      selection.engine = std::move(*engine);
      return selection;
    }
    // An invalid option fails every engine the same way; say so once.
    if (engine.error().code() == ErrorCode::invalid_argument) return tl::unexpected(engine.error());
    selection.tried.push_back({kind, false, engine.error().message()});
    reasons += (reasons.empty() ? "" : "; ") + engine.error().message();
  }
  return fail(ErrorCode::unsupported, "no I/O engine can run here: " + reasons);
}

}  // namespace iomark::engine
