#include "iomark/gui/plan_document.hpp"

#include <QFile>
#include <algorithm>
#include <cctype>

#include "iomark/common/ascii.hpp"
#include "iomark/results/durable_append.hpp"

namespace iomark::gui {

namespace {

using access_specs::AccessSpec;
using access_specs::DefaultAssignment;
using access_specs::Manager;
using access_specs::TestPlan;
using access_specs::Worker;
using access_specs::WorkerType;

const std::vector<AccessSpec> kNoSpecs;
const std::vector<Manager> kNoManagers;

}  // namespace

Worker make_worker(std::string name, const std::vector<AccessSpec>& specs, WorkerType type) {
  Worker worker;
  worker.name = std::move(name);
  worker.type = type;
  worker.assigned_specs.emplace();
  worker.targets.emplace();
  const auto own_default = type == WorkerType::disk ? DefaultAssignment::disk : DefaultAssignment::network;
  for (const auto& spec : specs) {
    if (spec.default_assignment == DefaultAssignment::all || spec.default_assignment == own_default) {
      worker.assigned_specs->push_back(spec.name);
    }
  }
  return worker;
}

std::optional<std::size_t> partner_manager(const std::vector<Manager>& managers, const access_specs::Target& target) {
  for (std::size_t m = 0; m < managers.size(); ++m) {
    if (ascii::iequals(managers[m].name, target.remote_manager_name) &&
        managers[m].id == target.remote_manager_id.value_or(1)) {
      return m;
    }
  }
  return std::nullopt;
}

PlanDocument::PlanDocument(QObject* parent) : QObject(parent) { clear(); }

access_specs::TestSetup PlanDocument::setup() const { return plan_.setup.value_or(access_specs::TestSetup{}); }

const std::vector<AccessSpec>& PlanDocument::specs() const {
  return plan_.access_specs ? *plan_.access_specs : kNoSpecs;
}

const std::vector<Manager>& PlanDocument::managers() const { return plan_.managers ? *plan_.managers : kNoManagers; }

void PlanDocument::clear() {
  plan_ = TestPlan{};
  plan_.setup = access_specs::TestSetup{};
  // A new plan runs for a while rather than "until stopped", which a series cannot do.
  plan_.setup->run_time_s = 10;
  plan_.access_specs.emplace();
  plan_.managers.emplace();
  file_path_.clear();
  modified_ = false;
  emit plan_replaced();
  emit modified_changed(false);
}

Result<std::vector<icf::Warning>> PlanDocument::open(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    return fail(ErrorCode::io_error, path.toStdString() + ": " + file.errorString().toStdString());
  }
  const QByteArray bytes = file.readAll();
  auto imported = icf::read_icf(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                path.toStdString());
  if (!imported) return fail(imported.error());
  plan_ = std::move(imported->plan);
  if (!plan_.setup) plan_.setup = access_specs::TestSetup{};
  if (!plan_.access_specs) plan_.access_specs.emplace();
  if (!plan_.managers) plan_.managers.emplace();
  file_path_ = path;
  modified_ = false;
  emit plan_replaced();
  emit modified_changed(false);
  return std::move(imported->warnings);
}

Result<void> PlanDocument::save(const QString& path) {
  if (auto written = results::replace_durably(path.toStdString(), icf::write_icf(plan_)); !written) return written;
  file_path_ = path;
  modified_ = false;
  emit modified_changed(false);
  return {};
}

void PlanDocument::set_setup(const access_specs::TestSetup& setup) {
  if (plan_.setup == setup) return;
  plan_.setup = setup;
  touch();
  emit setup_changed();
}

void PlanDocument::set_update_frequency_s(std::uint32_t seconds) {
  if (plan_.display && plan_.display->update_frequency_s == seconds) return;
  if (!plan_.display) plan_.display.emplace();
  plan_.display->update_frequency_s = seconds;
  touch();
}

void PlanDocument::put_spec(const AccessSpec& spec, std::optional<std::string> replaces) {
  auto& specs = *plan_.access_specs;
  const auto existing = replaces ? std::find_if(specs.begin(), specs.end(),
                                                [&](const AccessSpec& s) { return ascii::iequals(s.name, *replaces); })
                                 : specs.end();
  if (existing == specs.end()) {
    specs.push_back(spec);
  } else {
    *existing = spec;
    if (!ascii::iequals(*replaces, spec.name)) {
      for (auto& manager : *plan_.managers) {
        for (auto& worker : manager.workers) {
          if (!worker.assigned_specs) continue;
          for (auto& assigned : *worker.assigned_specs) {
            if (ascii::iequals(assigned, *replaces)) assigned = spec.name;
          }
        }
      }
      emit topology_changed();
    }
  }
  touch();
  emit specs_changed();
}

void PlanDocument::remove_spec(std::string_view name) {
  auto& specs = *plan_.access_specs;
  std::erase_if(specs, [&](const AccessSpec& s) { return ascii::iequals(s.name, name); });
  for (auto& manager : *plan_.managers) {
    for (auto& worker : manager.workers) {
      if (worker.assigned_specs) {
        std::erase_if(*worker.assigned_specs, [&](const std::string& s) { return ascii::iequals(s, name); });
      }
    }
  }
  touch();
  emit specs_changed();
  emit topology_changed();
}

std::size_t PlanDocument::ensure_manager(std::string_view name) {
  auto& managers = *plan_.managers;
  for (std::size_t m = 0; m < managers.size(); ++m) {
    if (ascii::iequals(managers[m].name, name)) return m;
  }
  Manager manager;
  manager.name = std::string(name);
  manager.workers.push_back(make_worker("Worker 1", specs()));
  managers.push_back(std::move(manager));
  touch();
  emit topology_changed();
  return managers.size() - 1;
}

void PlanDocument::remove_manager(std::size_t manager) {
  auto& managers = *plan_.managers;
  if (manager >= managers.size()) return;
  const auto removed = managers[manager];
  managers.erase(managers.begin() + static_cast<std::ptrdiff_t>(manager));
  for (auto& other : managers) {
    for (auto& worker : other.workers) {
      if (worker.type == WorkerType::disk || !worker.targets) continue;
      std::erase_if(*worker.targets, [&](const access_specs::Target& target) {
        return ascii::iequals(target.remote_manager_name, removed.name) && target.remote_manager_id.value_or(1) == removed.id;
      });
    }
  }
  touch();
  emit topology_changed();
}

std::size_t PlanDocument::add_worker(std::size_t manager, WorkerType type) {
  auto& workers = manager_at(manager).workers;
  std::size_t number = workers.size() + 1;
  auto taken = [&](const std::string& name) {
    return std::any_of(workers.begin(), workers.end(), [&](const Worker& w) { return ascii::iequals(w.name, name); });
  };
  while (taken("Worker " + std::to_string(number))) ++number;
  workers.push_back(make_worker("Worker " + std::to_string(number), specs(), type));
  touch();
  emit topology_changed();
  return workers.size() - 1;
}

void PlanDocument::remove_worker(std::size_t manager, std::size_t worker) {
  auto& workers = manager_at(manager).workers;
  if (worker >= workers.size()) return;
  workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(worker));
  touch();
  emit topology_changed();
}

void PlanDocument::set_worker(std::size_t manager, std::size_t worker, Worker value) {
  auto& workers = manager_at(manager).workers;
  if (worker >= workers.size() || workers[worker] == value) return;
  workers[worker] = std::move(value);
  touch();
  emit topology_changed();
}

void PlanDocument::touch() {
  if (modified_) return;
  modified_ = true;
  emit modified_changed(true);
}

Manager& PlanDocument::manager_at(std::size_t manager) { return plan_.managers->at(manager); }

}  // namespace iomark::gui
