// fault-eio and the lying writes: a test tool (fault_injection.hpp). Built on the sync
// engine's base so the I/Os it lets through behave exactly as sync's.
#include <array>
#include <cerrno>
#include <charconv>

#include "engine_internals.hpp"
#include "iomark/engine/fault_injection.hpp"

namespace iomark::engine {
namespace detail {
namespace {

class FaultInjectingEngine final : public CompletesInSubmitEngine<FaultInjectingEngine> {
 public:
  explicit FaultInjectingEngine(const FaultPlan& plan) : plan_(plan) {}

  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::sync; }
  [[nodiscard]] Capabilities capabilities() const noexcept override {
    return Capability::transfers_data | Capability::completes_in_submit;
  }

  [[nodiscard]] std::int64_t transfer(const IoRequest& request) noexcept {
    const int fd = target_fd(fds(), request.target);
    if (plan_.kind == FaultKind::eio) {
      if (fails(plan_, ++taken_)) return -EIO;
      return posix_transfer(fd, request);
    }
    if (request.op != IoOp::write || request.length_bytes == 0 || !fails(plan_, ++taken_)) {
      return posix_transfer(fd, request);
    }
    return lie(fd, request);
  }

 private:
  // The device's answer is always "all written"; what reaches the medium is not.
  [[nodiscard]] std::int64_t lie(int fd, const IoRequest& request) noexcept {
    IoRequest wrong = request;
    switch (plan_.kind) {
      case FaultKind::eio:
      case FaultKind::drop:
        return request.length_bytes;
      case FaultKind::flip: {
        // The buffer is the caller's: flip, write, and flip back before handing it back.
        std::byte& last = request.buffer[request.length_bytes - 1];
        last ^= std::byte{1};
        const auto written = posix_transfer(fd, request);
        last ^= std::byte{1};
        return written < 0 ? written : request.length_bytes;
      }
      case FaultKind::misdirect:
        wrong.offset_bytes = request.offset_bytes >= request.length_bytes ? request.offset_bytes - request.length_bytes
                                                                          : request.offset_bytes + request.length_bytes;
        const auto written = posix_transfer(fd, wrong);
        return written < 0 ? written : request.length_bytes;
    }
    return request.length_bytes;
  }


  FaultPlan plan_;
  std::uint64_t taken_{};
};

}  // namespace
}  // namespace detail

namespace {

constexpr std::string_view kGrammar = "fault-eio[-after-N][-every-K], or fault-flip, fault-shift or fault-drop with the same suffixes (K at least 1)";

struct KindName {
  FaultKind kind;
  std::string_view name;
};
constexpr std::array<KindName, 4> kKindNames{{{FaultKind::eio, "fault-eio"},
                                              {FaultKind::flip, "fault-flip"},
                                              {FaultKind::misdirect, "fault-shift"},
                                              {FaultKind::drop, "fault-drop"}}};

Error bad_name(std::string_view text) {
  return Error(ErrorCode::invalid_argument,
               "not a fault-injection engine name: '" + std::string(text) + "' (expected " + std::string(kGrammar) + ")")
      .in_field("engine");
}

// Takes "-WORD-NUMBER" off the front of `rest` when it starts with "-WORD-".
bool take_number(std::string_view& rest, std::string_view word, std::uint64_t& value, bool& bad) {
  const std::string prefix = "-" + std::string(word) + "-";
  if (!rest.starts_with(prefix)) return false;
  rest.remove_prefix(prefix.size());
  const auto end = rest.find('-');
  const auto digits = rest.substr(0, end);
  const auto [at, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  bad = digits.empty() || error != std::errc{} || at != digits.data() + digits.size();
  rest.remove_prefix(digits.size());
  return true;
}

}  // namespace

Result<FaultPlan> parse_fault_plan(std::string_view text) {
  FaultPlan plan;
  std::string_view rest;
  bool named = false;
  for (const auto& [kind, prefix] : kKindNames) {
    if (!text.starts_with(prefix)) continue;
    plan.kind = kind;
    rest = text.substr(prefix.size());
    named = true;
  }
  if (!named) return fail(bad_name(text));
  bool bad = false;
  take_number(rest, "after", plan.succeed_first, bad);
  if (!bad) take_number(rest, "every", plan.fail_every, bad);
  if (bad || !rest.empty() || plan.fail_every == 0) return fail(bad_name(text));
  return plan;
}

std::string fault_plan_name(const FaultPlan& plan) {
  std::string name = "fault-eio";
  for (const auto& [kind, prefix] : kKindNames) {
    if (kind == plan.kind) name = prefix;
  }
  if (plan.succeed_first != 0) name += "-after-" + std::to_string(plan.succeed_first);
  if (plan.fail_every != 1) name += "-every-" + std::to_string(plan.fail_every);
  return name;
}

std::unique_ptr<IoEngine> make_fault_injecting_engine(const FaultPlan& plan) {
  return std::make_unique<detail::FaultInjectingEngine>(plan);
}

}  // namespace iomark::engine
