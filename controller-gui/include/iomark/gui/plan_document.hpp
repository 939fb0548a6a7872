// The test plan being edited: one access_specs::TestPlan (everything an .icf file holds),
// the file it came from and whether it changed since. Every edit of the pages goes through
// here, so the models see one plan and learn of changes through one set of signals.
//
// Threading: UI thread only. Ownership: the main window owns it; models and pages keep a
// reference.
#pragma once

#include <QObject>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::gui {

class PlanDocument : public QObject {
  Q_OBJECT

 public:
  explicit PlanDocument(QObject* parent = nullptr);

  [[nodiscard]] const access_specs::TestPlan& plan() const noexcept { return plan_; }
  // The plan's setup, or the defaults when it has none.
  [[nodiscard]] access_specs::TestSetup setup() const;
  // The plan's own specs (empty when it has none); built-ins are never stored here.
  [[nodiscard]] const std::vector<access_specs::AccessSpec>& specs() const;
  // The plan's managers (empty when it has none).
  [[nodiscard]] const std::vector<access_specs::Manager>& managers() const;
  [[nodiscard]] const QString& file_path() const noexcept { return file_path_; }
  [[nodiscard]] bool modified() const noexcept { return modified_; }

  // File > New: an empty plan with default setup.
  void clear();
  // Reads an .icf (any dialect). On success the document holds its plan and the reader's
  // warnings are returned for the log; on failure the document is unchanged and the error
  // names file:line.
  [[nodiscard]] Result<std::vector<icf::Warning>> open(const QString& path);
  // Writes the plan as IOmeter 1.1.0 does, replacing the file durably.
  [[nodiscard]] Result<void> save(const QString& path);

  void set_setup(const access_specs::TestSetup& setup);
  // The Results Display's update frequency (0: never during a run), saved with the plan
  // (docs/iometer-reference.md#icf-results-display). A plan without the section gets one with
  // IOmeter's other defaults.
  void set_update_frequency_s(std::uint32_t seconds);

  // Adds `spec`, or replaces the plan spec named `replaces` (case-insensitively), renaming
  // it in every worker's assignments when the name changed.
  void put_spec(const access_specs::AccessSpec& spec, std::optional<std::string> replaces = std::nullopt);
  // Removes the plan spec and every assignment of it.
  void remove_spec(std::string_view name);

  // The index of the plan manager named `name` (case-insensitive), adding it with one disk
  // worker when it is missing.
  std::size_t ensure_manager(std::string_view name);
  // Removes the manager and the network targets of other workers that name it (the pairs
  // whose client it ran), as IOmeter drops a client with its manager.
  void remove_manager(std::size_t manager);
  // Appends a worker of `type` named "Worker N" (the next free N) with the plan's specs whose
  // default assignment is ALL or that type's (DISK, NETWORK); returns its index. A network
  // worker starts with no partner (no target).
  std::size_t add_worker(std::size_t manager, access_specs::WorkerType type = access_specs::WorkerType::disk);
  void remove_worker(std::size_t manager, std::size_t worker);
  void set_worker(std::size_t manager, std::size_t worker, access_specs::Worker value);

 signals:
  void setup_changed();
  void specs_changed();
  // Managers, workers, their settings, targets or assignments changed.
  void topology_changed();
  // The whole plan was replaced (new, open); every signal above applies.
  void plan_replaced();
  void modified_changed(bool modified);

 private:
  void touch();
  access_specs::Manager& manager_at(std::size_t manager);

  access_specs::TestPlan plan_;
  QString file_path_;
  bool modified_{false};
};

// A worker as IOmeter creates it: a worker of `type` named `name` with the default settings
// and the specs of `specs` whose default assignment is ALL or that type's (DISK, NETWORK).
[[nodiscard]] access_specs::Worker make_worker(std::string name, const std::vector<access_specs::AccessSpec>& specs,
                                               access_specs::WorkerType type = access_specs::WorkerType::disk);

// The plan manager a network target names: its name (case-insensitive) and its id, the
// occurrence of that name (1 when the target has none), as the controller core pairs them.
[[nodiscard]] std::optional<std::size_t> partner_manager(const std::vector<access_specs::Manager>& managers,
                                                         const access_specs::Target& target);

}  // namespace iomark::gui
