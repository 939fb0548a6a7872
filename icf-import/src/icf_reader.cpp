// read_icf(): the version line, the section dispatch and the checks that need every section.
#include <optional>
#include <string>
#include <unordered_map>

#include "iomark/icf/icf.hpp"
#include "icf_format.hpp"
#include "icf_reader_context.hpp"
#include "icf_sections.hpp"

namespace iomark::icf {

namespace {

using detail::iequals;
using detail::istarts_with;
using detail::Line;
using detail::ReaderContext;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

enum class SectionKind : std::uint8_t {
  test_setup,
  results_display,
  access_specs,
  manager_list,
  iomark_extensions,
  unknown
};

SectionKind classify(const Line& header) {
  if (istarts_with(header.text, format::kTestSetupTag)) return SectionKind::test_setup;
  if (istarts_with(header.text, format::kResultsDisplayTag)) return SectionKind::results_display;
  if (istarts_with(header.text, format::kAccessSpecsTag)) return SectionKind::access_specs;
  if (istarts_with(header.text, format::kManagerListTag)) return SectionKind::manager_list;
  if (istarts_with(header.text, format::kIomarkExtensionsTag)) return SectionKind::iomark_extensions;
  return SectionKind::unknown;
}

std::string_view end_marker(SectionKind kind) {
  switch (kind) {
    case SectionKind::test_setup: return format::kEndTestSetup;
    case SectionKind::results_display: return format::kEndResultsDisplay;
    case SectionKind::access_specs: return format::kEndAccessSpecs;
    case SectionKind::manager_list: return format::kEndManagerList;
    case SectionKind::iomark_extensions: return format::kEndIomarkExtensions;
    case SectionKind::unknown: break;
  }
  return {};
}

// docs/iometer-reference.md#icf-version: dates compare as yyyymmdd, x.y.z as x*10^10 + y*10^5 + z.
std::uint64_t version_number(std::uint64_t major, std::uint64_t middle, std::uint64_t minor) {
  // The OLTP sample shipped with 1998.01.05 says "3.26.97". IOmeter maps it to that release;
  // 1.1.0's x.y.z formula made its special case unreachable (it computes 30002600097). We
  // keep the intent: the access-spec format is chosen by content, so either kind of file loads.
  if (major == 3 && middle == 26 && minor == 97) return 19980105;
  if (major > 1900) return major * 10000 + middle * 100 + minor;
  return major * 10000000000ULL + middle * 100000ULL + minor;
}

Result<void> read_version(ReaderContext& cx, IcfImport& out) {
  while (const Line* line = cx.peek()) {
    if (!line->blank()) break;
    cx.warn(*line, "blank line before the version line ignored");
    cx.take();
  }
  if (cx.at_end()) {
    return fail(cx.error(Line{{}, {}, 1}, "Version", "the file is empty; an .icf starts with 'Version <version>'"));
  }
  const Line& line = cx.take();
  std::string_view text = line.text;
  if (istarts_with(text, "'Version")) {
    cx.warn(line, "version line starts with an apostrophe (as in the User's Guide); IOmeter never writes one");
    text.remove_prefix(1);
  }
  if (!istarts_with(text, format::kVersionPrefix)) {
    return fail(cx.error(line, "Version",
                         "not an IOmeter configuration file: the first line must be 'Version <version>', found '" +
                             detail::excerpt(text) + "'"));
  }
  out.version = std::string(detail::trim(text.substr(format::kVersionPrefix.size())));
  std::string_view rest = out.version;
  std::uint64_t parts[3]{};
  for (auto& part : parts) {
    auto number = detail::scan_version_number(rest);
    if (!number) return fail(cx.error(line, "Version", number.error() + " in '" + detail::excerpt(out.version) + "'"));
    part = *number;
  }
  out.version_number = version_number(parts[0], parts[1], parts[2]);
  if (out.version_number < format::kOldestVersion) {
    cx.warn(line, "version " + out.version + " is older than 1998.01.05; IOmeter warns and reads it anyway");
  }
  cx.version_number = out.version_number;
  return {};
}

// A section that appears twice: IOmeter only ever reads the first one.
void skip_section(ReaderContext& cx, const Line& header, SectionKind kind) {
  cx.warn(header, "second '" + detail::excerpt(format::section_name(header.text)) +
                      "' section ignored (IOmeter reads only the first)");
  while (const Line* line = cx.peek()) {
    if (ReaderContext::is_section_header(*line)) return;
    cx.take();
    if (line->is_key() && iequals(line->text, end_marker(kind))) return;
  }
}

// IOmeter resolves assigned spec names case-insensitively and stores the spec itself, so a
// file saved again spells them as the spec does.
void resolve_spec_names(ReaderContext& cx, access_specs::TestPlan& plan,
                        const std::vector<detail::SpecReference>& references) {
  if (!plan.access_specs || !plan.managers) return;
  std::unordered_map<std::string, const std::string*> by_name;
  for (const auto& spec : *plan.access_specs) by_name.emplace(detail::to_lower(spec.name), &spec.name);
  for (const auto& reference : references) {
    auto& name = (*(*plan.managers)[reference.manager].workers[reference.worker].assigned_specs)[reference.index];
    if (auto found = by_name.find(detail::to_lower(name)); found != by_name.end()) {
      name = *found->second;
    } else if (!iequals(name, "Idle")) {
      cx.warn(reference.line, "access specification '" + detail::excerpt(name) +
                                  "' is not defined in this file (IOmeter ignores the assignment unless it has "
                                  "a spec of that name)");
    }
  }
}

}  // namespace

Result<IcfImport> read_icf(std::string_view text, std::string_view file_name) {
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  ReaderContext cx(text, file_name);
  if (auto checked = cx.check_lines(); !checked) return fail(checked.error());

  IcfImport out;
  if (auto version = read_version(cx, out); !version) return fail(version.error());

  std::vector<detail::SpecReference> spec_references;
  std::optional<std::vector<detail::WorkerExtension>> extensions;
  auto& plan = out.plan;
  while (!cx.at_end()) {
    const Line& line = cx.take();
    if (!ReaderContext::is_section_header(line)) continue;  // text between sections is ignored
    cx.set_last_key(format::section_name(line.text));
    const SectionKind kind = classify(line);
    const bool seen = (kind == SectionKind::test_setup && plan.setup) ||
                      (kind == SectionKind::results_display && plan.display) ||
                      (kind == SectionKind::access_specs && plan.access_specs) ||
                      (kind == SectionKind::manager_list && plan.managers) ||
                      (kind == SectionKind::iomark_extensions && extensions);
    if (kind == SectionKind::unknown) {
      cx.warn(line, "unknown section '" + detail::excerpt(format::section_name(line.text)) + "' ignored");
      continue;
    }
    if (seen) {
      skip_section(cx, line, kind);
      continue;
    }
    switch (kind) {
      case SectionKind::test_setup: {
        auto setup = detail::read_test_setup(cx);
        if (!setup) return fail(setup.error());
        plan.setup = std::move(*setup);
        break;
      }
      case SectionKind::results_display: {
        auto display = detail::read_results_display(cx);
        if (!display) return fail(display.error());
        plan.display = std::move(*display);
        break;
      }
      case SectionKind::access_specs: {
        auto specs = detail::read_access_specs(cx);
        if (!specs) return fail(specs.error());
        plan.access_specs = std::move(*specs);
        break;
      }
      case SectionKind::manager_list: {
        auto list = detail::read_manager_list(cx);
        if (!list) return fail(list.error());
        plan.managers = std::move(list->managers);
        spec_references = std::move(list->spec_references);
        break;
      }
      case SectionKind::iomark_extensions: {
        auto read = detail::read_iomark_extensions(cx);
        if (!read) return fail(read.error());
        extensions = std::move(*read);
        break;
      }
      case SectionKind::unknown: break;
    }
  }
  if (extensions) {
    if (auto applied = detail::apply_iomark_extensions(cx, *extensions, plan); !applied) return fail(applied.error());
  }
  resolve_spec_names(cx, plan, spec_references);
  out.warnings = cx.take_warnings();
  return out;
}

}  // namespace iomark::icf
