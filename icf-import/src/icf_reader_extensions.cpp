// The 'IOMARK EXTENSIONS section: what iomark stores beside IOmeter's sections.
#include <charconv>
#include <cmath>

#include "iomark/access_specs/worker_rate.hpp"
#include "icf_format.hpp"
#include "icf_sections.hpp"
#include "icf_text.hpp"

namespace iomark::icf::detail {
namespace {

constexpr std::string_view kBlock = "the iomark extensions";

bool is_extension_key(std::string_view key) {
  return iequals(key, format::kDataReductionKey) || iequals(key, format::kRateKey) ||
         iequals(key, format::kEndIomarkExtensions);
}

// The rest of a 'Rate IOPS value: I/Os per second, a decimal number (the plan's validation
// checks its limits).
std::optional<double> rate_of(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  double rate{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), rate);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || !std::isfinite(rate)) {
    return std::nullopt;
  }
  return rate;
}

}  // namespace

Result<std::vector<WorkerExtension>> read_iomark_extensions(ReaderContext& cx) {
  std::vector<WorkerExtension> extensions;
  while (true) {
    auto key = cx.next_key();
    if (!key) return fail(key.error());
    if (*key == nullptr) return fail(cx.missing_end(format::kEndIomarkExtensions, kBlock));
    const Line& k = **key;
    if (iequals(k.text, format::kEndIomarkExtensions)) return extensions;
    const bool reduction_line = iequals(k.text, format::kDataReductionKey);
    if (!reduction_line && !iequals(k.text, format::kRateKey)) {
      // A later iomark's key: skipped, as this section is skipped by IOmeter.
      cx.skip_unknown(k, is_extension_key, kBlock);
      continue;
    }
    auto value = cx.value_of(k, is_extension_key);
    if (!value) return fail(value.error());
    std::string_view rest = value->text;
    auto manager = cx.read_u32(rest, *value, "manager");
    if (!manager) return fail(manager.error());
    auto worker = cx.read_u32(rest, *value, "worker");
    if (!worker) return fail(worker.error());
    WorkerExtension extension{.line = *value, .manager = *manager, .worker = *worker};
    if (reduction_line) {
      auto reduction = access_specs::parse_data_reduction(rest);
      if (!reduction) return fail(cx.error(*value, "pattern", reduction.error().message(), reduction.error().code()));
      extension.reduction = *reduction;
    } else {
      extension.rate_iops = rate_of(rest);
      if (!extension.rate_iops) {
        return fail(cx.error(*value, "rate", "\"" + std::string(rest) + "\" is not a number of I/Os per second",
                             ErrorCode::parse_error));
      }
      if (auto within = access_specs::check_worker_rate(*extension.rate_iops); !within) {
        return fail(cx.error(*value, "rate", within.error().message(), ErrorCode::invalid_argument));
      }
    }
    extensions.push_back(std::move(extension));
  }
}

Result<void> apply_iomark_extensions(const ReaderContext& cx, const std::vector<WorkerExtension>& extensions,
                                     access_specs::TestPlan& plan) {
  for (const auto& extension : extensions) {
    const auto managers = plan.managers ? plan.managers->size() : 0;
    if (extension.manager < 1 || extension.manager > managers ||
        extension.worker < 1 || extension.worker > (*plan.managers)[extension.manager - 1].workers.size()) {
      return fail(cx.error(extension.line, extension.reduction ? "Data reduction" : "Rate IOPS",
                           "names manager " + std::to_string(extension.manager) + ", worker " +
                               std::to_string(extension.worker) + ", which the manager list does not have",
                           ErrorCode::invalid_argument));
    }
    auto& worker = (*plan.managers)[extension.manager - 1].workers[extension.worker - 1];
    if (extension.reduction) worker.data_reduction = extension.reduction;
    if (extension.rate_iops) worker.rate_iops = extension.rate_iops;
  }
  return {};
}

}  // namespace iomark::icf::detail
