// The Disk Targets tab's list: what a worker may drive on its manager (block devices, mounted
// file systems for an iobw.tst test file, paths the agent allows) with the worker's targets
// ticked, numbered in the order the worker uses them (cycling tests take "the first N").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/gui/choice_table_model.hpp"
#include "iomark/gui/managers.hpp"

namespace iomark::gui {

struct TargetChoice {
  std::string name;       // what the plan stores when ticked: "/dev/sdb", "/data", a path
  std::string kind;       // "disk", "file system", "path"
  std::string details;    // size and model, or type and free space
  std::string test_file;  // the iobw.tst state of a file system target
  std::string warning;    // why the agent will refuse it, if it will
  // Why the agent refuses it as outside its write scope (docs/write-scope.md): the row is
  // greyed (disabled, unless ticked, so that it can be unticked) with this as its tooltip.
  std::string refusal;
  std::size_t order{};    // 1-based position among the worker's targets; 0 = not ticked
  friend bool operator==(const TargetChoice&, const TargetChoice&) = default;
};

// The manager's devices, file systems and allowed paths in inventory order, then the worker's
// targets the inventory does not list (legacy names such as "sdb", paths typed by hand).
// `live` may be null (the plan manager is not connected): then only the worker's targets.
[[nodiscard]] std::vector<TargetChoice> target_choices(const access_specs::Worker& worker, const LiveManager* live);

// The worker with `name` ticked (appended to its targets) or unticked.
[[nodiscard]] access_specs::Worker with_target(access_specs::Worker worker, const std::string& name, bool ticked);

class TargetsModel : public ChoiceTableModel<TargetChoice> {
  Q_OBJECT

 public:
  enum Column { target_column, details_column, test_file_column, column_count };

  explicit TargetsModel(QObject* parent = nullptr);

  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  // Ticking a target (CheckStateRole) does not change the model: it asks for the change
  // through toggled(), and the plan's new state comes back through set_choices().
  [[nodiscard]] bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  void toggled(const QString& name, bool ticked);

 private:
  [[nodiscard]] bool same_row(const TargetChoice& a, const TargetChoice& b) const override;
};

}  // namespace iomark::gui
