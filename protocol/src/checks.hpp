// Validation helpers shared by the wire converters (private to the protocol library).
//
// A Checker records the first failed check and turns every later check into a no-op that
// returns false, so converters read as a list of rules and loops stop at the first error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::protocol::detail {

// Where a field sits in a message: "sample.workers[2].targets[0].counters". Nodes live on
// the stack of the converters and point to their parent, so a path is only spelled out
// when a check fails. A node must not outlive its parent: name nodes as locals.
class FieldPath {
 public:
  explicit constexpr FieldPath(std::string_view root) noexcept : name_(root) {}

  [[nodiscard]] FieldPath operator/(std::string_view name) const noexcept { return FieldPath(this, name, kNoIndex); }
  // "name[index]" below this node.
  [[nodiscard]] FieldPath item(std::string_view name, std::size_t index) const noexcept {
    return FieldPath(this, name, index);
  }

  [[nodiscard]] std::string str() const;

 private:
  static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);
  constexpr FieldPath(const FieldPath* parent, std::string_view name, std::size_t index) noexcept
      : parent_(parent), name_(name), index_(index) {}

  const FieldPath* parent_{nullptr};
  std::string_view name_;
  std::size_t index_{kNoIndex};
};

class Checker {
 public:
  [[nodiscard]] bool ok() const noexcept { return !error_.has_value(); }
  // The first failure; only after ok() returned false.
  [[nodiscard]] Error take() &&;

  // Records a failure (unless one is recorded already); always returns false.
  bool fail(ErrorCode code, const FieldPath& where, std::string message);

  // invalid_argument unless `condition`; `message` says what was wrong.
  bool require(bool condition, const FieldPath& where, std::string_view message);
  // validation_error unless `condition`.
  bool consistent(bool condition, const FieldPath& where, std::string_view message);

  // UTF-8 of 1..kMaxNameBytes bytes, no control characters.
  bool name(std::string_view value, const FieldPath& where);
  // UTF-8 of min_bytes..kMaxLabelBytes bytes, no control characters.
  bool label(std::string_view value, std::size_t min_bytes, const FieldPath& where);
  // UTF-8 of at most max_bytes bytes, line breaks allowed (messages and reasons).
  bool text(std::string_view value, std::size_t max_bytes, const FieldPath& where);
  // At most max_bytes bytes of anything (e.g. a mount source, which is not always a path).
  bool raw(std::string_view value, std::size_t max_bytes, const FieldPath& where);
  // Absolute, 1..kMaxPathBytes bytes, no NUL; any other bytes (Linux paths need not be UTF-8).
  bool path(std::string_view value, const FieldPath& where);
  // A repeated field holds min..max items.
  bool count(int size, std::size_t min, std::size_t max, const FieldPath& where);
  // lo <= value <= hi.
  bool in_range(std::uint64_t value, std::uint64_t lo, std::uint64_t hi, const FieldPath& where);
  // A power of two in 1..max.
  bool power_of_two(std::uint64_t value, std::uint64_t max, const FieldPath& where);
  // A finite percentage in 0..100.
  bool percent(double value, const FieldPath& where);
  // A host's rate per second: 0..kMaxHostRatePerSecond.
  bool rate(double value, const FieldPath& where);
  // 0, or kMinWorkerRateIops..kMaxWorkerRateIops.
  bool worker_rate(double value, const FieldPath& where);
  // A duration in nanoseconds that fits iomark::Nanoseconds.
  bool duration(std::uint64_t value_ns, const FieldPath& where);

  // A wire enum value maps onto Domain: wire = domain + offset, with domain in first..last.
  template <typename Domain>
  bool enumeration(int wire, Domain first, Domain last, int offset, Domain& out, const FieldPath& where) {
    if (!ok()) return false;
    const int domain = wire - offset;
    if (domain < static_cast<int>(first) || domain > static_cast<int>(last)) {
      return fail(ErrorCode::invalid_argument, where, "is " + std::to_string(wire) + ", not a known value");
    }
    out = static_cast<Domain>(domain);
    return true;
  }

 private:
  std::optional<Error> error_;
};

}  // namespace iomark::protocol::detail
