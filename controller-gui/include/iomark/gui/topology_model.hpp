// The topology tree of the main window: managers, then their workers, with state and host
// facts. Built from plain values (the plan's managers and the connected managers) by
// build_topology(); the model only presents the rows it is given.
#pragma once

#include <QAbstractItemModel>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/gui/managers.hpp"

namespace iomark::gui {

// Where a worker is in the plan: its manager's and its own index.
struct PlanWorkerIndex {
  std::size_t manager{};
  std::size_t worker{};
  friend bool operator==(const PlanWorkerIndex&, const PlanWorkerIndex&) = default;
};

struct TopologyWorkerRow {
  std::string name;
  std::string state;    // "2 targets, QD 4" (outstanding I/Os per target), "no target",
                        // "server, client on B", "client of A / Worker 2"
  std::string details;  // the assigned specs in order
  // A network client: the plan does not hold it (IOmeter makes it on the partner's manager
  // and never writes it), it runs the server worker's specs. These rows follow the
  // manager's own workers, so a row index below the plan's worker count is the plan's.
  std::optional<PlanWorkerIndex> client_of;
  friend bool operator==(const TopologyWorkerRow&, const TopologyWorkerRow&) = default;
};

struct TopologyManagerRow {
  std::string name;     // the plan's name; "OLD on NEW" when it runs on a manager of another name
  std::string state;    // "connected", "not connected", "running", "connected, not in the plan",
                        // "connection lost: disconnect it"
  std::string details;  // host facts of the connected manager: endpoint, CPUs, OS, build
  bool connected{false};
  std::optional<std::size_t> plan_index;  // into the plan's managers
  std::optional<std::size_t> live_index;  // into the connected managers
  std::vector<TopologyWorkerRow> workers;  // the plan manager's workers
  friend bool operator==(const TopologyManagerRow&, const TopologyManagerRow&) = default;
};

// The plan's managers in plan order (paired as pair_managers() does), each with its workers
// then the network clients of the pairs whose partner interface it owns; then the connected
// managers no plan manager uses. `running`: a series is running on the paired managers.
[[nodiscard]] std::vector<TopologyManagerRow> build_topology(const std::vector<access_specs::Manager>& planned,
                                                             const std::vector<LiveManager>& live, bool running);

// Top-level rows give their manager's name under kManagerNameRole (manager_filter.hpp).
class TopologyModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { name_column, state_column, details_column, column_count };
  // What set_rows() did.
  enum class Change : std::uint8_t { none, values, rows };

  explicit TopologyModel(QObject* parent = nullptr);

  // Rows of the same shape (as many managers, each with as many workers) change in place,
  // one dataChanged per changed manager row and per run of changed workers; anything else
  // resets the model. At 256 managers x 16 workers a reset drops the view's layout, its
  // expansion and its selection, so it is kept for what changes the rows themselves.
  Change set_rows(std::vector<TopologyManagerRow> rows);
  [[nodiscard]] const std::vector<TopologyManagerRow>& rows() const noexcept { return rows_; }

  // What an index stands for: its manager row, and the worker when it is a worker row.
  struct Position {
    std::size_t manager{};
    std::optional<std::size_t> worker;
  };
  [[nodiscard]] std::optional<Position> position(const QModelIndex& index) const;
  [[nodiscard]] QModelIndex index_of(const Position& position) const;

  [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<TopologyManagerRow> rows_;
};

}  // namespace iomark::gui
