#include "checks.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "iomark/common/utf8.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::protocol::detail {

namespace {

bool has_control_character(std::string_view value) noexcept {
  return std::any_of(value.begin(), value.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

std::string too_long(std::size_t size, std::size_t max) {
  return "is " + std::to_string(size) + " bytes long, at most " + std::to_string(max) + " allowed";
}

}  // namespace

std::string FieldPath::str() const {
  std::string parent = parent_ == nullptr ? std::string() : parent_->str();
  if (!name_.empty()) {
    if (!parent.empty()) parent += '.';
    parent += name_;
  }
  if (index_ != kNoIndex) parent += "[" + std::to_string(index_) + "]";
  return parent;
}

Error Checker::take() && { return std::move(*error_); }

bool Checker::fail(ErrorCode code, const FieldPath& where, std::string message) {
  if (!error_) error_ = Error(code, std::move(message)).in_field(where.str());
  return false;
}

bool Checker::require(bool condition, const FieldPath& where, std::string_view message) {
  if (!ok()) return false;
  return condition || fail(ErrorCode::invalid_argument, where, std::string(message));
}

bool Checker::consistent(bool condition, const FieldPath& where, std::string_view message) {
  if (!ok()) return false;
  return condition || fail(ErrorCode::validation_error, where, std::string(message));
}

// The checks below build their message only when they fail: they run for every field of
// every sample.

bool Checker::name(std::string_view value, const FieldPath& where) {
  if (!ok()) return false;
  if (value.empty()) return fail(ErrorCode::invalid_argument, where, "is empty");
  if (value.size() > kMaxNameBytes) return fail(ErrorCode::invalid_argument, where, too_long(value.size(), kMaxNameBytes));
  if (has_control_character(value)) return fail(ErrorCode::invalid_argument, where, "contains a control character");
  if (!is_utf8(value)) return fail(ErrorCode::invalid_argument, where, "is not valid UTF-8");
  return true;
}

bool Checker::label(std::string_view value, std::size_t min_bytes, const FieldPath& where) {
  if (!ok()) return false;
  if (value.size() < min_bytes) return fail(ErrorCode::invalid_argument, where, "is empty");
  if (value.size() > kMaxLabelBytes) {
    return fail(ErrorCode::invalid_argument, where, too_long(value.size(), kMaxLabelBytes));
  }
  if (has_control_character(value)) return fail(ErrorCode::invalid_argument, where, "contains a control character");
  if (!is_utf8(value)) return fail(ErrorCode::invalid_argument, where, "is not valid UTF-8");
  return true;
}

bool Checker::text(std::string_view value, std::size_t max_bytes, const FieldPath& where) {
  if (!ok()) return false;
  if (value.size() > max_bytes) return fail(ErrorCode::invalid_argument, where, too_long(value.size(), max_bytes));
  if (!is_utf8(value)) return fail(ErrorCode::invalid_argument, where, "is not valid UTF-8");
  return true;
}

bool Checker::raw(std::string_view value, std::size_t max_bytes, const FieldPath& where) {
  if (!ok()) return false;
  if (value.size() > max_bytes) return fail(ErrorCode::invalid_argument, where, too_long(value.size(), max_bytes));
  return true;
}

bool Checker::path(std::string_view value, const FieldPath& where) {
  if (!ok()) return false;
  if (value.empty()) return fail(ErrorCode::invalid_argument, where, "is empty");
  if (value.size() > kMaxPathBytes) return fail(ErrorCode::invalid_argument, where, too_long(value.size(), kMaxPathBytes));
  if (value.front() != '/') return fail(ErrorCode::invalid_argument, where, "is not an absolute path");
  if (value.find('\0') != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument, where, "contains a NUL byte");
  }
  return true;
}

bool Checker::count(int size, std::size_t min, std::size_t max, const FieldPath& where) {
  if (!ok()) return false;
  const auto n = static_cast<std::size_t>(size);
  if (n < min) {
    return fail(ErrorCode::invalid_argument, where,
                "has " + std::to_string(n) + " items, at least " + std::to_string(min) + " needed");
  }
  if (n > max) {
    return fail(ErrorCode::invalid_argument, where,
                "has " + std::to_string(n) + " items, at most " + std::to_string(max) + " allowed");
  }
  return true;
}

bool Checker::in_range(std::uint64_t value, std::uint64_t lo, std::uint64_t hi, const FieldPath& where) {
  if (!ok()) return false;
  if (value < lo) {
    return fail(ErrorCode::invalid_argument, where,
                "is " + std::to_string(value) + ", must be at least " + std::to_string(lo));
  }
  if (value > hi) {
    return fail(ErrorCode::invalid_argument, where,
                "is " + std::to_string(value) + ", must be at most " + std::to_string(hi));
  }
  return true;
}

bool Checker::power_of_two(std::uint64_t value, std::uint64_t max, const FieldPath& where) {
  if (!ok()) return false;
  if (value < 1 || value > max || !std::has_single_bit(value)) {
    return fail(ErrorCode::invalid_argument, where,
                "is " + std::to_string(value) + ", must be a power of two up to " + std::to_string(max));
  }
  return true;
}

bool Checker::percent(double value, const FieldPath& where) {
  if (!ok()) return false;
  if (!(std::isfinite(value) && value >= 0.0 && value <= 100.0)) {
    return fail(ErrorCode::invalid_argument, where, "is " + std::to_string(value) + ", must be 0 to 100");
  }
  return true;
}

bool Checker::rate(double value, const FieldPath& where) {
  if (!ok()) return false;
  if (!(std::isfinite(value) && value >= 0.0 && value <= kMaxHostRatePerSecond)) {
    return fail(ErrorCode::invalid_argument, where, "is " + std::to_string(value) + ", must be 0 to 1e11 per second");
  }
  return true;
}

bool Checker::worker_rate(double value, const FieldPath& where) {
  if (!ok()) return false;
  const bool allowed = value >= kMinWorkerRateIops && value <= kMaxWorkerRateIops;  // false for NaN
  if (value != 0.0 && !allowed) {
    std::ostringstream reason;
    reason << "is " << value << " I/Os per second, must be 0 (no rate) or " << kMinWorkerRateIops << " to "
           << kMaxWorkerRateIops;
    return fail(ErrorCode::invalid_argument, where, reason.str());
  }
  return true;
}

bool Checker::duration(std::uint64_t value_ns, const FieldPath& where) {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return in_range(value_ns, 0, kMax, where);
}

}  // namespace iomark::protocol::detail
