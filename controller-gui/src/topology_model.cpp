#include "iomark/gui/topology_model.hpp"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <iterator>

#include "iomark/gui/manager_filter.hpp"
#include "iomark/gui/plan_document.hpp"

namespace iomark::gui {

namespace {

std::string host_facts(const LiveManager& live) {
  const auto& inventory = live.inventory;
  std::string facts = live.embedded() ? "embedded agent" : live.endpoint;
  facts += ", " + std::to_string(inventory.cpu_count) + (inventory.cpu_count == 1 ? " CPU" : " CPUs");
  if (!inventory.os_name.empty()) facts += ", " + inventory.os_name + " " + inventory.kernel_release;
  if (!live.build.empty()) facts += ", " + live.build;
  if (!inventory.engines.empty()) facts += ", engines: " + inventory.engines.front();
  return facts;
}

std::string spec_list(const access_specs::Worker& worker) {
  std::string list;
  if (worker.assigned_specs) {
    for (const auto& spec : *worker.assigned_specs) list += (list.empty() ? "" : ", ") + spec;
  }
  return list.empty() ? "no access spec assigned" : list;
}

TopologyWorkerRow worker_row(const access_specs::Worker& worker) {
  TopologyWorkerRow row;
  row.name = worker.name;
  const auto targets = worker.targets ? worker.targets->size() : 0;
  if (worker.type != access_specs::WorkerType::disk) {
    row.state = targets == 0 ? std::string("network, no partner")
                             : "server, client on " + worker.targets->front().remote_manager_name + " " +
                                   worker.targets->front().name;
  } else {
    row.state = targets == 0 ? std::string("no target")
                             : std::to_string(targets) + (targets == 1 ? " target, " : " targets, ") +
                                   "QD " + std::to_string(worker.outstanding_ios);
  }
  row.details = spec_list(worker);
  return row;
}

// The clients IOmeter makes for the plan's paired network servers, per plan manager owning
// the partner interface, named as the controller names them at Start.
std::vector<std::vector<TopologyWorkerRow>> client_rows(const std::vector<access_specs::Manager>& planned) {
  std::vector<std::vector<TopologyWorkerRow>> clients(planned.size());
  for (std::size_t m = 0; m < planned.size(); ++m) {
    const auto& workers = planned[m].workers;
    for (std::size_t w = 0; w < workers.size(); ++w) {
      const auto& server = workers[w];
      if (server.type == access_specs::WorkerType::disk || !server.targets || server.targets->empty()) continue;
      const auto partner = partner_manager(planned, server.targets->front());
      if (!partner) continue;
      clients[*partner].push_back({server.name + " (client)",
                                   "client of " + planned[m].name + " / " + server.name + ", from " +
                                       server.targets->front().name,
                                   spec_list(server), PlanWorkerIndex{m, w}});
    }
  }
  return clients;
}

}  // namespace

std::vector<TopologyManagerRow> build_topology(const std::vector<access_specs::Manager>& planned,
                                               const std::vector<LiveManager>& live, bool running) {
  std::vector<TopologyManagerRow> rows;
  const auto paired = pair_managers(planned, live);
  auto clients = client_rows(planned);
  std::vector<bool> used(live.size(), false);
  for (std::size_t p = 0; p < planned.size(); ++p) {
    TopologyManagerRow row;
    row.name = planned[p].name;
    row.plan_index = p;
    if (paired[p]) {
      const auto& host = live[*paired[p]];
      used[*paired[p]] = true;
      row.live_index = paired[p];
      row.connected = true;
      if (host.name != planned[p].name) row.name += " on " + host.name;
      row.state = running ? "running" : "connected";
      row.details = host_facts(host);
    } else {
      row.state = "not connected";
      row.details = "waiting for an agent to log in, or for one to be dialled";
    }
    for (const auto& worker : planned[p].workers) row.workers.push_back(worker_row(worker));
    std::move(clients[p].begin(), clients[p].end(), std::back_inserter(row.workers));
    rows.push_back(std::move(row));
  }
  for (std::size_t l = 0; l < live.size(); ++l) {
    if (used[l]) continue;
    TopologyManagerRow row;
    row.name = live[l].name;
    row.live_index = l;
    row.connected = live[l].open;
    row.state = live[l].open ? "connected, not in the plan" : "connection lost: disconnect it";
    row.details = host_facts(live[l]);
    rows.push_back(std::move(row));
  }
  return rows;
}

TopologyModel::TopologyModel(QObject* parent) : QAbstractItemModel(parent) {}

TopologyModel::Change TopologyModel::set_rows(std::vector<TopologyManagerRow> rows) {
  if (rows == rows_) return Change::none;
  const bool same_shape =
      rows.size() == rows_.size() && std::equal(rows.begin(), rows.end(), rows_.begin(), [](const auto& a, const auto& b) {
        return a.workers.size() == b.workers.size();
      });
  if (!same_shape) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
    return Change::rows;
  }
  std::swap(rows, rows_);  // `rows` holds the old rows from here
  for (std::size_t m = 0; m < rows_.size(); ++m) {
    const auto& now = rows_[m];
    const auto& before = rows[m];
    if (now.name != before.name || now.state != before.state || now.details != before.details ||
        now.connected != before.connected) {
      emit dataChanged(index(static_cast<int>(m), 0), index(static_cast<int>(m), column_count - 1));
    }
    const auto manager = index(static_cast<int>(m), 0);
    for (std::size_t first = 0; first < now.workers.size();) {
      if (now.workers[first] == before.workers[first]) {
        ++first;
        continue;
      }
      auto last = first;
      while (last + 1 < now.workers.size() && now.workers[last + 1] != before.workers[last + 1]) ++last;
      emit dataChanged(index(static_cast<int>(first), 0, manager), index(static_cast<int>(last), column_count - 1, manager));
      first = last + 1;
    }
  }
  return Change::values;
}

std::optional<TopologyModel::Position> TopologyModel::position(const QModelIndex& index) const {
  if (!index.isValid()) return std::nullopt;
  if (index.internalId() == 0) return Position{static_cast<std::size_t>(index.row()), std::nullopt};
  return Position{static_cast<std::size_t>(index.internalId() - 1), static_cast<std::size_t>(index.row())};
}

QModelIndex TopologyModel::index_of(const Position& position) const {
  if (position.manager >= rows_.size()) return {};
  const auto manager = index(static_cast<int>(position.manager), 0);
  if (!position.worker) return manager;
  if (*position.worker >= rows_[position.manager].workers.size()) return manager;
  return index(static_cast<int>(*position.worker), 0, manager);
}

QModelIndex TopologyModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  if (!parent.isValid()) return createIndex(row, column, quintptr{0});
  return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex TopologyModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == 0) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int TopologyModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(rows_.size());
  if (parent.column() != 0 || parent.internalId() != 0) return 0;
  return static_cast<int>(rows_[static_cast<std::size_t>(parent.row())].workers.size());
}

int TopologyModel::columnCount(const QModelIndex&) const { return column_count; }

QVariant TopologyModel::data(const QModelIndex& index, int role) const {
  const auto where = position(index);
  if (!where) return {};
  const auto& manager = rows_[where->manager];
  if (role == kManagerNameRole) return where->worker ? QVariant() : QVariant(QString::fromStdString(manager.name));
  if (role == Qt::ForegroundRole && index.column() == state_column && !where->worker) {
    return QBrush(manager.connected ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xa0, 0x5a, 0x00));
  }
  // Greyed as IOmeter greys its client workers: made from their server, edited there.
  if (role == Qt::ForegroundRole && where->worker && manager.workers[*where->worker].client_of) {
    return QBrush(QColor(0x70, 0x70, 0x70));
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const std::string* text = nullptr;
  if (where->worker) {
    const auto& worker = manager.workers[*where->worker];
    text = index.column() == name_column ? &worker.name : index.column() == state_column ? &worker.state : &worker.details;
  } else {
    text = index.column() == name_column ? &manager.name : index.column() == state_column ? &manager.state : &manager.details;
  }
  return QString::fromStdString(*text);
}

QVariant TopologyModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case name_column: return tr("Manager / worker");
    case state_column: return tr("State");
    case details_column: return tr("Details");
    default: return {};
  }
}

}  // namespace iomark::gui
