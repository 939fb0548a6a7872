// The Network Targets tab: for the network (TCP) worker selected in the topology, every
// manager's interfaces with the one ticked that its client connects from (ticking one pairs
// the worker, unticking unpairs it), the local interface its server listens on, and the
// per-target settings network workers use: Test Connection Rate and Transactions per
// Connection (limits from the field descriptors), and the outstanding I/Os the plan keeps but
// a network worker does not honour (one transaction at a time). A disk worker selected shows
// the tab disabled with a sentence saying why.
//
// Every edit goes through the PlanDocument: the pair is the server worker's one target, which
// the controller core turns into the server and its client at Start (plan_series), and which
// the .icf holds as IOmeter writes it (the client is never written).
#pragma once

#include <QWidget>
#include <cstddef>
#include <optional>
#include <vector>

#include "iomark/gui/managers.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableView;

namespace iomark::gui {

class NetworkTargetsModel;
class PlanDocument;

class NetworkTargetsPage : public QWidget {
  Q_OBJECT

 public:
  explicit NetworkTargetsPage(PlanDocument& document, QWidget* parent = nullptr);

  // The connected managers (Session::managers()): their inventories list the interfaces of
  // the plan managers they run, paired as the run pairs them (pair_managers()).
  void set_live_managers(std::vector<LiveManager> live);
  // Shows the plan manager's worker. Without a network worker the page says why it is off.
  void show_worker(std::optional<std::size_t> manager, std::optional<std::size_t> worker);

  // What the page shows, for the main window's tests and for scripted use.
  [[nodiscard]] NetworkTargetsModel& targets() noexcept { return *targets_; }
  [[nodiscard]] QComboBox& local_interface() noexcept { return *local_interface_; }
  [[nodiscard]] QCheckBox& test_connection_rate() noexcept { return *connection_rate_; }
  [[nodiscard]] QSpinBox& transactions_per_connection() noexcept { return *transactions_; }
  [[nodiscard]] QSpinBox& outstanding_ios() noexcept { return *outstanding_; }
  // The sentence above the list: whose partner is shown, or why the page is off.
  [[nodiscard]] QString explanation() const;
  // The sentence under the list: what the pair runs as, or that the worker has none.
  [[nodiscard]] QString pair_status() const;

 private:
  void refresh();
  void toggle(int row, bool ticked);
  void store_settings();
  [[nodiscard]] const access_specs::Worker* worker() const;
  // The connected manager running the plan manager, or null.
  [[nodiscard]] const LiveManager* live_of(std::size_t plan_manager) const;

  PlanDocument& document_;
  std::vector<LiveManager> live_;
  std::optional<std::size_t> manager_;
  std::optional<std::size_t> worker_;
  bool loading_{false};
  QLabel* title_{};
  QTableView* view_{};
  NetworkTargetsModel* targets_{};
  QLabel* pair_status_{};
  QWidget* settings_{};
  QComboBox* local_interface_{};
  QSpinBox* outstanding_{};
  QCheckBox* connection_rate_{};
  QSpinBox* transactions_{};
};

}  // namespace iomark::gui
