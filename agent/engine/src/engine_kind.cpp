#include "iomark/engine/engine_kind.hpp"

#include <string>

namespace iomark::engine {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) {
      return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

std::string_view to_string(EngineKind kind) noexcept {
  switch (kind) {
    case EngineKind::io_uring:
      return "io_uring";
    case EngineKind::linux_aio:
      return "linux-aio";
    case EngineKind::threadpool:
      return "threadpool";
    case EngineKind::sync:
      return "sync";
    case EngineKind::null:
      return "null";
  }
  return "unknown";
}

Result<EngineKind> parse_engine_kind(std::string_view text) {
  if (equals_ignoring_case(text, "libaio")) return EngineKind::linux_aio;
  for (const auto kind : kAllEngineKinds) {
    if (equals_ignoring_case(text, to_string(kind))) return kind;
  }
  return fail(Error(ErrorCode::invalid_argument,
                    "unknown engine '" + std::string(text) +
                        "' (expected io_uring, libaio, linux-aio, threadpool, sync or null)")
                  .in_field("engine"));
}

}  // namespace iomark::engine
