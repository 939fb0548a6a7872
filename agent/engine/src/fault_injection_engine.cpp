// fault-eio: a test tool (fault_injection.hpp). Built on the sync engine's base so the
// I/Os it lets through behave exactly as sync's.
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
    if (fails(plan_, ++taken_)) return -EIO;
    return posix_transfer(target_fd(fds(), request.target), request);
  }

 private:
  FaultPlan plan_;
  std::uint64_t taken_{};
};

}  // namespace
}  // namespace detail

namespace {

constexpr std::string_view kGrammar = "fault-eio[-after-N][-every-K] (K at least 1)";

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
  constexpr std::string_view kPrefix = "fault-eio";
  if (!text.starts_with(kPrefix)) return fail(bad_name(text));
  std::string_view rest = text.substr(kPrefix.size());
  FaultPlan plan;
  bool bad = false;
  take_number(rest, "after", plan.succeed_first, bad);
  if (!bad) take_number(rest, "every", plan.fail_every, bad);
  if (bad || !rest.empty() || plan.fail_every == 0) return fail(bad_name(text));
  return plan;
}

std::string fault_plan_name(const FaultPlan& plan) {
  std::string name = "fault-eio";
  if (plan.succeed_first != 0) name += "-after-" + std::to_string(plan.succeed_first);
  if (plan.fail_every != 1) name += "-every-" + std::to_string(plan.fail_every);
  return name;
}

std::unique_ptr<IoEngine> make_fault_injecting_engine(const FaultPlan& plan) {
  return std::make_unique<detail::FaultInjectingEngine>(plan);
}

}  // namespace iomark::engine
