#include "iomark/access_specs/test_plan.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/access_specs/worker_rate.hpp"
#include "iomark/common/ascii.hpp"

namespace iomark::access_specs {
namespace {

// IOmeter keeps manager and worker names in char[128] buffers (Manager_Info, MAX_WORKER_NAME).
constexpr std::size_t kMaxIcfNameLength = 127;

// The only update frequencies the 1.1.0 Results Display offers; 0 shows as "oo" (never).
constexpr std::array<std::uint32_t, 11> kUpdateFrequencies{0, 1, 2, 3, 4, 5, 10, 15, 30, 45, 60};
constexpr std::uint32_t kBarChartCount = 6;

constexpr std::array<TestType, 8> kTestTypes{TestType::normal,
                                             TestType::cycle_targets,
                                             TestType::cycle_workers,
                                             TestType::increment_targets_parallel,
                                             TestType::increment_targets_serial,
                                             TestType::cycle_workers_and_targets,
                                             TestType::cycle_outstanding_ios,
                                             TestType::cycle_outstanding_ios_and_targets};
constexpr std::array<RecordResults, 5> kRecordResults{RecordResults::all, RecordResults::no_targets,
                                                      RecordResults::no_workers, RecordResults::no_managers,
                                                      RecordResults::none};
constexpr std::array<StepType, 2> kStepTypes{StepType::linear, StepType::exponential};
constexpr std::array<UpdateType, 2> kUpdateTypes{UpdateType::whole_test, UpdateType::last_update};

template <typename Enum, std::size_t N>
std::optional<Enum> parse_literal(const std::array<Enum, N>& values, std::string_view literal) noexcept {
  for (const Enum value : values) {
    if (ascii::iequals(literal, to_string(value))) return value;
  }
  return std::nullopt;
}

tl::unexpected<Error> plan_error(ErrorCode code, const std::string& who, const std::string& message,
                                 std::string field) {
  return fail(Error(code, who + ": " + message).in_field(std::move(field)));
}

bool has_line_break(std::string_view text) { return text.find_first_of("\r\n") != std::string_view::npos; }

bool has_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
}

template <typename Enum>
Result<void> check_enum(Enum value, const std::string& who, std::string_view what, std::string field) {
  if (!to_string(value).empty()) return {};
  return plan_error(
      ErrorCode::validation_error, who,
      std::string(what) + " " + std::to_string(static_cast<unsigned>(value)) + " is not a known value",
      std::move(field));
}

Result<void> check_cycling(const Cycling& cycling, FieldId start, FieldId step, const std::string& who,
                           std::string_view what) {
  if (auto ok = check_field(start, cycling.start, who); !ok) return ok;
  if (auto ok = check_field(step, cycling.step, who); !ok) return ok;
  std::string field(field_descriptor(start).key);  // "worker_cycling_start" -> "..._step_type"
  field.replace(field.rfind("start"), 5, "step_type");
  return check_enum(cycling.step_type, who, std::string(what) + " step type", std::move(field));
}

Result<void> validate_setup(const TestSetup& setup) {
  const std::string who = "test setup";
  if (has_line_break(setup.description)) {
    return plan_error(ErrorCode::validation_error, who, "description contains a line break", "description");
  }
  if (auto ok = check_field(FieldId::run_time, setup.run_time_s, who); !ok) return ok;
  if (auto ok = check_field(FieldId::ramp_up, setup.ramp_up_s, who); !ok) return ok;
  if (auto ok = check_enum(setup.record_results, who, "record results", "record_results"); !ok) return ok;
  if (auto ok = check_enum(setup.test_type, who, "test type", "test_type"); !ok) return ok;
  if (auto ok = check_cycling(setup.worker_cycling, FieldId::worker_cycling_start,
                              FieldId::worker_cycling_step, who, "worker cycling");
      !ok) {
    return ok;
  }
  if (auto ok = check_cycling(setup.target_cycling, FieldId::target_cycling_start,
                              FieldId::target_cycling_step, who, "disk cycling");
      !ok) {
    return ok;
  }

  const QueueDepthCycling& qd = setup.queue_depth_cycling;
  for (const auto& [id, value] :
       {std::pair{FieldId::queue_depth_start, qd.start}, std::pair{FieldId::queue_depth_end, qd.end},
        std::pair{FieldId::queue_depth_step, qd.step}}) {
    if (auto ok = check_field(id, value, who); !ok) return ok;
  }
  if (auto ok = check_enum(qd.step_type, who, "queue depth cycling step type", "queue_depth_step_type");
      !ok) {
    return ok;
  }
  if (qd.start > qd.end) {
    const FieldDescriptor& start = field_descriptor(FieldId::queue_depth_start);
    return plan_error(ErrorCode::validation_error, who,
                      "'" + std::string(start.icf_name) + "' is " + std::to_string(qd.start) +
                          ", above the end " + std::to_string(qd.end),
                      std::string(start.key));
  }
  return {};
}

Result<void> validate_display(const ResultsDisplay& display) {
  const std::string who = "results display";
  if (std::find(kUpdateFrequencies.begin(), kUpdateFrequencies.end(), display.update_frequency_s) ==
      kUpdateFrequencies.end()) {
    return plan_error(ErrorCode::invalid_argument, who,
                      "update frequency " + std::to_string(display.update_frequency_s) +
                          " s is not one of 0 (never), 1, 2, 3, 4, 5, 10, 15, 30, 45, 60",
                      "update_frequency");
  }
  if (auto ok = check_enum(display.update_type, who, "update type", "update_type"); !ok) return ok;
  std::array<bool, kBarChartCount + 1> seen{};
  for (const BarChart& bar : display.bar_charts) {
    if (bar.number < 1 || bar.number > kBarChartCount) {
      return plan_error(ErrorCode::invalid_argument, who,
                        "bar chart " + std::to_string(bar.number) + " does not exist (1 to 6)", "bar_charts");
    }
    if (seen[bar.number]) {
      return plan_error(ErrorCode::validation_error, who,
                        "bar chart " + std::to_string(bar.number) + " is listed twice", "bar_charts");
    }
    seen[bar.number] = true;
  }
  return {};
}

Result<void> validate_specs(const std::vector<AccessSpec>& specs) {
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const AccessSpec& spec = specs[i];
    if (auto ok = validate(spec); !ok) return ok;
    const std::string who = "spec '" + spec.name + "'";
    if (ascii::iequals(spec.name, kIdleSpecName)) {
      return plan_error(ErrorCode::validation_error, who, "the name is reserved for the built-in idle spec",
                        "name");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (ascii::iequals(specs[j].name, spec.name)) {
        return plan_error(ErrorCode::validation_error, who,
                          "duplicates the name of spec '" + specs[j].name + "' (names ignore case)", "name");
      }
    }
  }
  return {};
}

Result<void> check_owner_name(const std::string& name, const std::string& who, std::string_view what) {
  const std::string field = std::string(what) + "_name";
  if (name.empty())
    return plan_error(ErrorCode::validation_error, who, std::string(what) + " name is empty", field);
  if (has_control(name)) {
    return plan_error(ErrorCode::validation_error, who,
                      std::string(what) + " name contains a control character", field);
  }
  if (name.size() > kMaxIcfNameLength) {
    return plan_error(ErrorCode::validation_error, who,
                      std::string(what) + " name is " + std::to_string(name.size()) +
                          " bytes long, at most " + std::to_string(kMaxIcfNameLength) + " fit in an ICF file",
                      field);
  }
  return {};
}

Result<void> validate_targets(const Worker& worker, const std::string& who) {
  if (!worker.targets) return {};
  for (std::size_t i = 0; i < worker.targets->size(); ++i) {
    const Target& target = (*worker.targets)[i];
    const std::string target_who = who + ", target " + std::to_string(i + 1) + " '" + target.name + "'";
    if (target.name.empty() || has_control(target.name)) {
      return plan_error(ErrorCode::validation_error, target_who,
                        "name is empty or contains a control character", "targets");
    }
    if (target.type != worker.type) {
      return plan_error(ErrorCode::validation_error, target_who,
                        worker.type == WorkerType::disk ? "a disk worker can only drive disk targets"
                                                        : "a network target must have the worker's type",
                        "targets");
    }
    if (target.type != WorkerType::disk && target.remote_manager_name.empty()) {
      return plan_error(ErrorCode::validation_error, target_who,
                        "a network target must name the manager that owns the interface", "targets");
    }
  }
  return {};
}

Result<void> validate_worker(const Worker& worker, const std::string& manager_who,
                             const std::vector<AccessSpec>& plan_specs) {
  const std::string who = manager_who + ", worker '" + worker.name + "'";
  if (auto ok = check_owner_name(worker.name, who, "worker"); !ok) return ok;
  for (const auto& [id, value] : {
           std::pair<FieldId, std::uint64_t>{FieldId::outstanding_ios, worker.outstanding_ios},
           std::pair<FieldId, std::uint64_t>{FieldId::max_disk_size_sectors,
                                             worker.maximum_disk_size_sectors},
           std::pair<FieldId, std::uint64_t>{FieldId::starting_sector, worker.starting_sector},
           std::pair<FieldId, std::uint64_t>{FieldId::data_pattern,
                                             static_cast<std::uint64_t>(worker.data_pattern)},
           std::pair<FieldId, std::uint64_t>{FieldId::transactions_per_connection,
                                             worker.transactions_per_connection},
           std::pair<FieldId, std::uint64_t>{FieldId::fixed_seed, worker.fixed_seed},
       }) {
    if (auto ok = check_field(id, value, who); !ok) return ok;
  }
  if (worker.data_reduction) {
    if (auto ok = validate(*worker.data_reduction); !ok) {
      return plan_error(ok.error().code(), who, ok.error().message(), "data_reduction");
    }
  }
  if (worker.rate_iops) {
    if (worker.type != WorkerType::disk) {
      return plan_error(ErrorCode::invalid_argument, who, "only a disk worker runs at a rate", "rate_iops");
    }
    if (auto within = check_worker_rate(*worker.rate_iops); !within) {
      return plan_error(ErrorCode::invalid_argument, who, within.error().message(), "rate_iops");
    }
  }
  if (worker.assigned_specs) {
    for (const std::string& name : *worker.assigned_specs) {
      if (ascii::iequals(name, kIdleSpecName) || find_spec(plan_specs, name) != nullptr ||
          find_builtin_spec(name) != nullptr) {
        continue;
      }
      return plan_error(ErrorCode::not_found, who,
                        "assigned spec '" + name + "' is neither in the plan nor built in", "assigned_specs");
    }
  }
  return validate_targets(worker, who);
}

Result<void> validate_managers(const std::vector<Manager>& managers, const std::vector<AccessSpec>& specs) {
  for (std::size_t i = 0; i < managers.size(); ++i) {
    const Manager& manager = managers[i];
    const std::string who = "manager '" + manager.name + "' (id " + std::to_string(manager.id) + ")";
    if (auto ok = check_owner_name(manager.name, who, "manager"); !ok) return ok;
    if (manager.id < 1)
      return plan_error(ErrorCode::invalid_argument, who, "id must be at least 1", "manager_id");
    if (has_control(manager.network_address)) {
      return plan_error(ErrorCode::validation_error, who, "network address contains a control character",
                        "network_address");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (managers[j].id == manager.id && ascii::iequals(managers[j].name, manager.name)) {
        return plan_error(ErrorCode::validation_error, who,
                          "appears twice; same-named managers need distinct ids", "manager_id");
      }
    }
    for (const Worker& worker : manager.workers) {
      if (auto ok = validate_worker(worker, who, specs); !ok) return ok;
    }
  }
  return {};
}

}  // namespace

Result<void> validate(const TestPlan& plan) {
  if (plan.setup) {
    if (auto ok = validate_setup(*plan.setup); !ok) return ok;
  }
  if (plan.display) {
    if (auto ok = validate_display(*plan.display); !ok) return ok;
  }
  static const std::vector<AccessSpec> kNoSpecs;
  const std::vector<AccessSpec>& specs = plan.access_specs ? *plan.access_specs : kNoSpecs;
  if (auto ok = validate_specs(specs); !ok) return ok;
  if (plan.managers) return validate_managers(*plan.managers, specs);
  return {};
}

const AccessSpec* find_spec(const std::vector<AccessSpec>& specs, std::string_view name) {
  const auto it = std::find_if(specs.begin(), specs.end(),
                               [name](const AccessSpec& spec) { return ascii::iequals(spec.name, name); });
  return it == specs.end() ? nullptr : &*it;
}

std::string_view to_string(TestType type) noexcept {
  switch (type) {
    case TestType::normal: return "NORMAL";
    case TestType::cycle_targets: return "CYCLE_TARGETS";
    case TestType::cycle_workers: return "CYCLE_WORKERS";
    case TestType::increment_targets_parallel: return "INCREMENT_TARGETS_PARALLEL";
    case TestType::increment_targets_serial: return "INCREMENT_TARGETS_SERIAL";
    case TestType::cycle_workers_and_targets: return "CYCLE_WORKERS_AND_TARGETS";
    case TestType::cycle_outstanding_ios: return "CYCLE_OUTSTANDING_IOS";
    case TestType::cycle_outstanding_ios_and_targets: return "CYCLE_OUTSTANDING_IOS_AND_TARGETS";
  }
  return "";
}

std::string_view to_string(RecordResults record) noexcept {
  switch (record) {
    case RecordResults::all: return "ALL";
    case RecordResults::no_targets: return "NO_TARGETS";
    case RecordResults::no_workers: return "NO_WORKERS";
    case RecordResults::no_managers: return "NO_MANAGERS";
    case RecordResults::none: return "NONE";
  }
  return "";
}

std::string_view to_string(StepType step) noexcept {
  switch (step) {
    case StepType::linear: return "LINEAR";
    case StepType::exponential: return "EXPONENTIAL";
  }
  return "";
}

std::optional<TestType> parse_test_type(std::string_view literal) noexcept {
  return parse_literal(kTestTypes, literal);
}

std::optional<RecordResults> parse_record_results(std::string_view literal) noexcept {
  return parse_literal(kRecordResults, literal);
}

std::optional<StepType> parse_step_type(std::string_view literal) noexcept {
  return parse_literal(kStepTypes, literal);
}

std::optional<DataPattern> parse_data_pattern(std::string_view name) noexcept {
  if (name == "repeating") return DataPattern::repeating_bytes;
  if (name == "pseudo-random") return DataPattern::pseudo_random;
  if (name == "full-random") return DataPattern::full_random;
  return std::nullopt;
}

std::string_view to_string(UpdateType type) noexcept {
  switch (type) {
    case UpdateType::whole_test: return "WHOLE_TEST";
    case UpdateType::last_update: return "LAST_UPDATE";
  }
  return "";
}

std::optional<UpdateType> parse_update_type(std::string_view literal) noexcept {
  return parse_literal(kUpdateTypes, literal);
}

Result<void> check_worker_rate(double rate_iops) {
  if (rate_iops >= kMinWorkerRateIops && rate_iops <= kMaxWorkerRateIops) return {};
  std::ostringstream limits;
  limits << "a rate of " << rate_iops << " I/Os per second is outside " << kMinWorkerRateIops << " to "
         << kMaxWorkerRateIops;
  return fail(ErrorCode::invalid_argument, limits.str());
}

}  // namespace iomark::access_specs
