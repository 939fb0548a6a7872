// TEST SETUP (docs/iometer-reference.md#icf-test-setup) and RESULTS DISPLAY (§1.5).
#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <string>

#include "icf_format.hpp"
#include "icf_sections.hpp"

namespace iomark::icf::detail {

namespace {

using access_specs::BarChart;
using access_specs::Cycling;
using access_specs::QueueDepthCycling;
using access_specs::ResultsDisplay;
using access_specs::StepType;
using access_specs::TestSetup;
using access_specs::UpdateType;
using access_specs::WorkersToSpawn;

template <typename Enum>
using LiteralParser = std::optional<Enum> (*)(std::string_view) noexcept;

// An IOmeter literal (any case), or its numeric value 0..max_value as older files wrote it.
template <typename Enum>
Result<Enum> read_enum(const ReaderContext& cx, std::string_view& rest, const Line& line, std::string_view field,
                       LiteralParser<Enum> parse, std::uint32_t max_value) {
  const std::string_view token = scan_token(rest);
  if (token.empty()) return fail(cx.error(line, field, "expected a value"));
  if (auto literal = parse(to_upper(token))) return *literal;
  std::uint32_t value = 0;
  const auto [end, status] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (status == std::errc() && end == token.data() + token.size() && value <= max_value) {
    return static_cast<Enum>(value);
  }
  return fail(cx.error(line, field, "unknown value '" + excerpt(token) + "'", ErrorCode::invalid_argument));
}

bool is_setup_key(std::string_view key) {
  for (const auto known : {format::kTestDescription, format::kRunTime, format::kDefaultDiskWorkers,
                           format::kDefaultNetworkWorkers, format::kLegacyDefaultWorkers, format::kRecordResults,
                           format::kWorkerCycling, format::kDiskCycling, format::kQueueDepthCycling,
                           format::kTestType, format::kEndTestSetup}) {
    if (iequals(key, known)) return true;
  }
  return istarts_with(key, format::kRampUpTimePrefix);
}

// NUMBER_OF_CPUS or a count. IOmeter keeps "one per CPU" as -1, so -1 means the same.
Result<WorkersToSpawn> read_workers_to_spawn(const ReaderContext& cx, const Line& value, std::string_view field) {
  std::string_view rest = value.text;
  const std::string_view token = scan_token(rest);
  if (iequals(token, format::kNumberOfCpus)) return WorkersToSpawn{std::nullopt};
  std::string_view number = token;
  auto scanned = scan_int(number);
  if (!scanned || !number.empty() || token.find_first_not_of("-0123456789") != std::string_view::npos) {
    return fail(cx.error(value, field, "expected NUMBER_OF_CPUS or a worker count, found '" + excerpt(token) + "'"));
  }
  if (scanned->negative && scanned->magnitude == 1) return WorkersToSpawn{std::nullopt};
  if (scanned->negative && scanned->magnitude != 0) {
    return fail(cx.error(value, field, "a worker count cannot be negative", ErrorCode::invalid_argument));
  }
  if (scanned->magnitude > std::numeric_limits<std::uint32_t>::max()) {
    return fail(cx.error(value, field, "the worker count does not fit in 32 bits", ErrorCode::invalid_argument));
  }
  return WorkersToSpawn{static_cast<std::uint32_t>(scanned->magnitude)};
}

Result<std::uint32_t> read_run_time(const ReaderContext& cx, const Line& value) {
  const std::string_view field = format::field_name(format::kRunTime);
  std::string_view rest = value.text;
  std::uint64_t total = 0;
  for (const std::uint64_t unit : {3600U, 60U, 1U}) {
    auto part = cx.read_u32(rest, value, field);
    if (!part) return fail(part.error());
    total += *part * unit;
  }
  if (total > std::numeric_limits<std::uint32_t>::max()) {
    return fail(cx.error(value, field, "a run time of " + std::to_string(total) + " s does not fit in 32 bits",
                         ErrorCode::invalid_argument));
  }
  return static_cast<std::uint32_t>(total);
}

Result<Cycling> read_cycling(const ReaderContext& cx, const Line& value, std::string_view field) {
  std::string_view rest = value.text;
  auto start = cx.read_u32(rest, value, field);
  if (!start) return fail(start.error());
  auto step = cx.read_u32(rest, value, field);
  if (!step) return fail(step.error());
  auto type = read_enum<StepType>(cx, rest, value, field, &access_specs::parse_step_type, 1);
  if (!type) return fail(type.error());
  return Cycling{*start, *step, *type};
}

Result<QueueDepthCycling> read_queue_cycling(const ReaderContext& cx, const Line& value) {
  const std::string_view field = format::field_name(format::kQueueDepthCycling);
  std::string_view rest = value.text;
  auto start = cx.read_u32(rest, value, field);
  if (!start) return fail(start.error());
  auto end = cx.read_u32(rest, value, field);
  if (!end) return fail(end.error());
  auto step = cx.read_u32(rest, value, field);
  if (!step) return fail(step.error());
  auto type = read_enum<StepType>(cx, rest, value, field, &access_specs::parse_step_type, 1);
  if (!type) return fail(type.error());
  return QueueDepthCycling{*start, *end, *step, *type};
}

Result<void> apply_setup_key(ReaderContext& cx, const Line& key, const Line& value, TestSetup& setup) {
  const std::string_view k = key.text;
  const std::string_view field = format::field_name(k);
  auto assign = [](auto& target) {
    return [&target](auto parsed) { target = std::move(parsed); };
  };
  if (iequals(k, format::kTestDescription)) {
    setup.description = std::string(value.text);
    return {};
  }
  if (iequals(k, format::kRunTime)) return read_run_time(cx, value).map(assign(setup.run_time_s));
  if (istarts_with(k, format::kRampUpTimePrefix)) {
    std::string_view rest = value.text;
    return cx.read_u32(rest, value, format::field_name(format::kRampUpTime)).map(assign(setup.ramp_up_s));
  }
  if (iequals(k, format::kDefaultDiskWorkers)) {
    return read_workers_to_spawn(cx, value, field).map(assign(setup.default_disk_workers));
  }
  if (iequals(k, format::kDefaultNetworkWorkers)) {
    return read_workers_to_spawn(cx, value, field).map(assign(setup.default_network_workers));
  }
  if (iequals(k, format::kLegacyDefaultWorkers)) {
    // Before disk and network workers were told apart, 0 meant "one per CPU".
    std::string_view rest = value.text;
    return cx.read_u32(rest, value, field).map([&](std::uint32_t count) {
      setup.default_disk_workers = count == 0 ? WorkersToSpawn{std::nullopt} : WorkersToSpawn{count};
    });
  }
  if (iequals(k, format::kRecordResults)) {
    std::string_view rest = value.text;
    return read_enum<access_specs::RecordResults>(cx, rest, value, field, &access_specs::parse_record_results, 4)
        .map(assign(setup.record_results));
  }
  if (iequals(k, format::kWorkerCycling)) return read_cycling(cx, value, field).map(assign(setup.worker_cycling));
  if (iequals(k, format::kDiskCycling)) return read_cycling(cx, value, field).map(assign(setup.target_cycling));
  if (iequals(k, format::kQueueDepthCycling)) return read_queue_cycling(cx, value).map(assign(setup.queue_depth_cycling));
  std::string_view rest = value.text;
  return read_enum<access_specs::TestType>(cx, rest, value, field, &access_specs::parse_test_type, 7)
      .map(assign(setup.test_type));
}

bool is_display_key(std::string_view key) {
  return iequals(key, format::kDisplayFirstKey) || iequals(key, format::kLegacyDisplayFirstKey) ||
         iequals(key, format::kEndResultsDisplay) || istarts_with(key, format::kBarChartPrefix);
}

Result<UpdateType> read_update_type(const ReaderContext& cx, std::string_view& rest, const Line& value) {
  const std::string_view token = scan_token(rest);
  if (iequals(token, format::kLastUpdate)) return UpdateType::last_update;
  if (iequals(token, format::kWholeTest)) return UpdateType::whole_test;
  return fail(cx.error(value, "Update Type", "expected LAST_UPDATE or WHOLE_TEST, found '" + excerpt(token) + "'",
                       ErrorCode::invalid_argument));
}

Result<std::uint32_t> read_update_frequency(ReaderContext& cx, std::string_view& rest, const Line& value) {
  auto seconds = cx.read_u32(rest, value, "Update Frequency");
  if (!seconds) return seconds;
  const auto& valid = format::kUpdateFrequencies;
  if (std::find(valid.begin(), valid.end(), *seconds) == valid.end()) {
    cx.warn(value, "update frequency " + std::to_string(*seconds) +
                       " s is not one IOmeter offers; read as 0 (no updates during the run), as IOmeter does");
    return 0U;
  }
  return seconds;
}

BarChart& bar_chart(ResultsDisplay& display, std::uint32_t number) {
  for (BarChart& bar : display.bar_charts) {
    if (bar.number == number) return bar;
  }
  BarChart& bar = display.bar_charts.emplace_back();
  bar.number = number;
  return bar;
}

std::string statistic_caption(ReaderContext& cx, const Line& value) {
  for (const auto caption : format::kStatisticCaptions) {
    if (iequals(caption, value.text)) return std::string(caption);
  }
  cx.warn(value, "statistic '" + excerpt(value.text) + "' is not one IOmeter 1.1.0 knows (it keeps the bar as it was)");
  return std::string(value.text);
}

Result<void> apply_bar_chart_key(ReaderContext& cx, const Line& key, ResultsDisplay& display) {
  std::string_view rest = key.text.substr(format::kBarChartPrefix.size());
  const auto number = scan_int(rest);
  const std::string_view sub_key = rest;
  const bool known_sub_key = iequals(sub_key, format::kBarStatistic) || iequals(sub_key, format::kBarManager) ||
                             iequals(sub_key, format::kBarWorker);
  if (!number || !known_sub_key) {
    cx.skip_unknown(key, &is_display_key, "RESULTS DISPLAY");
    return {};
  }
  auto value = cx.value_of(key, &is_display_key);
  if (!value) return fail(value.error());
  if (number->negative || number->magnitude < 1 || number->magnitude > format::kBarChartCount) {
    cx.warn(key, "bar chart numbers run from 1 to 6; this key is ignored");
    return {};
  }
  BarChart& bar = bar_chart(display, static_cast<std::uint32_t>(number->magnitude));
  if (iequals(sub_key, format::kBarStatistic)) {
    bar.statistic = statistic_caption(cx, *value);
    return {};
  }
  const bool manager = iequals(sub_key, format::kBarManager);
  std::string_view id_rest = value->text;
  auto id = cx.read_u32(id_rest, *value, manager ? "Bar chart manager ID" : "Bar chart worker ID");
  if (!id) return fail(id.error());
  if (manager) {
    bar.manager_id = *id;
    bar.manager_name = std::string(id_rest);
  } else {
    bar.worker_id = *id;
    bar.worker_name = std::string(id_rest);
  }
  return {};
}

Result<void> apply_display_key(ReaderContext& cx, const Line& key, ResultsDisplay& display) {
  if (istarts_with(key.text, format::kBarChartPrefix)) return apply_bar_chart_key(cx, key, display);
  auto value = cx.value_of(key, &is_display_key);
  if (!value) return fail(value.error());
  std::string_view rest = value->text;
  if (iequals(key.text, format::kLegacyDisplayFirstKey)) {
    cx.warn(key, "pre-1.1.0 key 'Update Frequency,Update Type' accepted (IOmeter 1.1.0 rejects it and "
                 "restores no RESULTS DISPLAY settings)");
  } else {
    display.record_last_update = iequals(scan_token(rest), format::kEnabled);
  }
  auto frequency = read_update_frequency(cx, rest, *value);
  if (!frequency) return fail(frequency.error());
  auto type = read_update_type(cx, rest, *value);
  if (!type) return fail(type.error());
  display.update_frequency_s = *frequency;
  display.update_type = *type;
  return {};
}

}  // namespace

Result<TestSetup> read_test_setup(ReaderContext& cx) {
  // Files older than 1999.02.17 had no 'END test setup: IOmeter stops at the first key it
  // does not know, which is usually the next section's header.
  const bool legacy = cx.version_number < format::kStrictTestSetupVersion;
  TestSetup setup;
  while (true) {
    auto key = cx.next_key();
    if (!key) return fail(key.error());
    if (*key == nullptr) {
      if (legacy) return setup;
      return fail(cx.missing_end(format::kEndTestSetup, "the TEST SETUP section"));
    }
    const Line& k = **key;
    if (iequals(k.text, format::kEndTestSetup)) return setup;
    if (!is_setup_key(k.text)) {
      if (legacy) {
        cx.warn(k, "unknown key '" + excerpt(format::field_name(k.text)) +
                       "' ends TEST SETUP (files older than 1999.02.17 have no end marker)");
        return setup;
      }
      cx.skip_unknown(k, &is_setup_key, "TEST SETUP");
      continue;
    }
    auto value = cx.value_of(k, &is_setup_key);
    if (!value) return fail(value.error());
    if (auto applied = apply_setup_key(cx, k, *value, setup); !applied) return fail(applied.error());
  }
}

Result<ResultsDisplay> read_results_display(ReaderContext& cx) {
  ResultsDisplay display;
  while (true) {
    auto key = cx.next_key();
    if (!key) return fail(key.error());
    if (*key == nullptr) return fail(cx.missing_end(format::kEndResultsDisplay, "the RESULTS DISPLAY section"));
    const Line& k = **key;
    if (iequals(k.text, format::kEndResultsDisplay)) return display;
    if (!is_display_key(k.text)) {
      cx.skip_unknown(k, &is_display_key, "RESULTS DISPLAY");
      continue;
    }
    if (auto applied = apply_display_key(cx, k, display); !applied) return fail(applied.error());
  }
}

}  // namespace iomark::icf::detail
