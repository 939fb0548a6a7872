// The 'IOMARK EXTENSIONS section: what iomark stores beside IOmeter's sections.
#include "icf_format.hpp"
#include "icf_sections.hpp"
#include "icf_text.hpp"

namespace iomark::icf::detail {
namespace {

constexpr std::string_view kBlock = "the iomark extensions";

bool is_extension_key(std::string_view key) {
  return iequals(key, format::kDataReductionKey) || iequals(key, format::kEndIomarkExtensions);
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
    if (!iequals(k.text, format::kDataReductionKey)) {
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
    auto reduction = access_specs::parse_data_reduction(rest);
    if (!reduction) return fail(cx.error(*value, "pattern", reduction.error().message(), reduction.error().code()));
    extensions.push_back({*value, *manager, *worker, *reduction});
  }
}

Result<void> apply_iomark_extensions(const ReaderContext& cx, const std::vector<WorkerExtension>& extensions,
                                     access_specs::TestPlan& plan) {
  for (const auto& extension : extensions) {
    const auto managers = plan.managers ? plan.managers->size() : 0;
    if (extension.manager < 1 || extension.manager > managers ||
        extension.worker < 1 || extension.worker > (*plan.managers)[extension.manager - 1].workers.size()) {
      return fail(cx.error(extension.line, "Data reduction",
                           "names manager " + std::to_string(extension.manager) + ", worker " +
                               std::to_string(extension.worker) + ", which the manager list does not have",
                           ErrorCode::invalid_argument));
    }
    (*plan.managers)[extension.manager - 1].workers[extension.worker - 1].data_reduction = extension.reduction;
  }
  return {};
}

}  // namespace iomark::icf::detail
