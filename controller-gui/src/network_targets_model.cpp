#include "iomark/gui/network_targets_model.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>

#include "iomark/gui/plan_document.hpp"

namespace iomark::gui {

namespace {

using access_specs::WorkerType;

// "/8, MTU 65536, link speed unknown"
std::string interface_facts(const protocol::NetworkInterface& nic) {
  std::string text = "/" + std::to_string(nic.prefix_length);
  text += nic.mtu_bytes == 0 ? ", MTU unknown" : ", MTU " + std::to_string(nic.mtu_bytes);
  text += nic.speed_mbps ? ", " + std::to_string(*nic.speed_mbps) + " Mb/s" : ", link speed unknown";
  return text;
}

}  // namespace

std::string describe_interface(const protocol::NetworkInterface& nic) {
  return nic.name + " " + nic.address + interface_facts(nic);
}

std::vector<NetworkChoice> network_choices(const std::vector<access_specs::Manager>& planned,
                                           const access_specs::Worker& worker, std::size_t worker_manager,
                                           const std::vector<const LiveManager*>& live) {
  const access_specs::Target* own_target =
      worker.targets && !worker.targets->empty() ? &worker.targets->front() : nullptr;
  const auto own_partner = own_target ? partner_manager(planned, *own_target) : std::nullopt;
  auto is_partner = [&](std::size_t manager, const std::string& name, const std::string& address) {
    return own_partner == manager && (own_target->name == address || (!name.empty() && own_target->name == name));
  };
  std::vector<NetworkChoice> choices;
  for (std::size_t m = 0; m < planned.size(); ++m) {
    const auto& manager = planned[m];
    auto choice_for = [&](std::string name, std::string address, std::string details) {
      NetworkChoice choice{m, manager.name, manager.id, std::move(name), std::move(address), std::move(details),
                           m == worker_manager, false};
      choice.partner = is_partner(m, choice.interface, choice.address);
      return choice;
    };
    const LiveManager* host = m < live.size() ? live[m] : nullptr;
    if (host != nullptr) {
      for (const auto& nic : host->inventory.interfaces) {
        choices.push_back(choice_for(nic.name, nic.address, interface_facts(nic)));
      }
    }
    // What the plan names on this manager: every network target pointing at it.
    auto listed = [&](const std::string& name) {
      return std::any_of(choices.begin(), choices.end(), [&](const NetworkChoice& c) {
        return c.plan_manager == m && (c.address == name || c.interface == name);
      });
    };
    for (const auto& other : planned) {
      for (const auto& server : other.workers) {
        if (server.type == WorkerType::disk || !server.targets) continue;
        for (const auto& target : *server.targets) {
          if (partner_manager(planned, target) != m || listed(target.name)) continue;
          choices.push_back(choice_for("", target.name,
                                       host != nullptr ? "named in the plan, not an interface of this manager: "
                                                         "Start refuses it"
                                                       : "named in the plan (the manager is not connected)"));
        }
      }
    }
  }
  return choices;
}

access_specs::Worker with_partner(access_specs::Worker worker, const NetworkChoice* partner) {
  worker.targets.emplace();
  if (partner != nullptr) {
    worker.targets->push_back({partner->address, worker.type, partner->manager_id, partner->manager});
  }
  return worker;
}

NetworkTargetsModel::NetworkTargetsModel(QObject* parent) : ChoiceTableModel(parent) {}

bool NetworkTargetsModel::same_row(const NetworkChoice& a, const NetworkChoice& b) const {
  return a.plan_manager == b.plan_manager && a.address == b.address;
}

int NetworkTargetsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant NetworkTargetsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto& choice = choices_[static_cast<std::size_t>(index.row())];
  if (role == Qt::CheckStateRole && index.column() == address_column) {
    return choice.partner ? Qt::Checked : Qt::Unchecked;
  }
  if (role == Qt::FontRole && choice.partner) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::ForegroundRole && choice.details.find("Start refuses") != std::string::npos) {
    return QBrush(QColor(0x99, 0x33, 0x00));
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case manager_column: {
      auto text = QString::fromStdString(choice.manager);
      if (choice.own_manager) text += tr(" (this worker's)");
      return text;
    }
    case address_column: {
      auto text = QString::fromStdString(choice.address);
      if (!choice.interface.empty()) text += QStringLiteral(" (%1)").arg(QString::fromStdString(choice.interface));
      return text;
    }
    case details_column: return QString::fromStdString(choice.details);
    default: return {};
  }
}

bool NetworkTargetsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::CheckStateRole || index.column() != address_column ||
      !checkIndex(index, CheckIndexOption::IndexIsValid)) {
    return false;
  }
  emit toggled(index.row(), value.toInt() == Qt::Checked);
  return true;
}

Qt::ItemFlags NetworkTargetsModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  auto flags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
  if (index.column() == address_column) flags |= Qt::ItemIsUserCheckable;
  return flags;
}

QVariant NetworkTargetsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case manager_column: return tr("Manager");
    case address_column: return tr("Interface (the client's end)");
    case details_column: return tr("Prefix, MTU, link speed");
    default: return {};
  }
}

}  // namespace iomark::gui
