// The Network Targets tab's list: the interfaces a network (TCP) worker's client may sit on,
// manager by manager, with the one ticked that the worker is paired with
// (docs/iometer-reference.md#workers-and-pairs: the server worker's target is the remote interface;
// IOmeter makes the client worker on the manager that owns it, and never writes the client to the
// .icf). Plain values in, so tests build it from recorded inventories.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/gui/choice_table_model.hpp"
#include "iomark/gui/managers.hpp"

namespace iomark::gui {

struct NetworkChoice {
  std::size_t plan_manager{};  // the plan manager owning the interface
  std::string manager;         // its name in the plan
  std::uint32_t manager_id{1};
  std::string interface;  // "eth0"; empty when only the plan names the address
  std::string address;    // what the worker's target stores when ticked
  std::string details;    // "/8, MTU 65536, link speed unknown", or where the plan names it
  bool own_manager{false};  // the worker's own manager: server and client on one agent
  bool partner{false};      // the worker's target: the pair's client end
  friend bool operator==(const NetworkChoice&, const NetworkChoice&) = default;
};

// Every plan manager's interfaces in plan order: a connected manager's from its inventory
// (`live[m]`, null when plan manager m is not connected), then, for every manager, the
// addresses the plan's network targets name on it that the inventory does not list (what a
// manager not connected is known by). The worker's own target is among them, ticked.
[[nodiscard]] std::vector<NetworkChoice> network_choices(const std::vector<access_specs::Manager>& planned,
                                                         const access_specs::Worker& worker,
                                                         std::size_t worker_manager,
                                                         const std::vector<const LiveManager*>& live);

// The worker paired with `partner` (its one target names the interface and its manager), or,
// with no partner, the worker with no target (unpaired: no client runs).
[[nodiscard]] access_specs::Worker with_partner(access_specs::Worker worker, const NetworkChoice* partner);

// "lo 127.0.0.1/8, MTU 65536, 10000 Mb/s": an interface as the tab and the combo box show it.
[[nodiscard]] std::string describe_interface(const protocol::NetworkInterface& nic);

class NetworkTargetsModel : public ChoiceTableModel<NetworkChoice> {
  Q_OBJECT

 public:
  enum Column { manager_column, address_column, details_column, column_count };

  explicit NetworkTargetsModel(QObject* parent = nullptr);

  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  // Ticking an interface (CheckStateRole on the address column) does not change the model:
  // it asks for the pair through toggled(), and the plan's new state comes back through
  // set_choices().
  [[nodiscard]] bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  void toggled(int row, bool ticked);

 private:
  [[nodiscard]] bool same_row(const NetworkChoice& a, const NetworkChoice& b) const override;
};

}  // namespace iomark::gui
