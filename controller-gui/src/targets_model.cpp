#include "iomark/gui/targets_model.hpp"

#include <QBrush>
#include <QColor>
#include <algorithm>

#include "iomark/common/units.hpp"
#include "iomark/controller/target_scope.hpp"

namespace iomark::gui {

namespace {

std::string device_warning(const protocol::BlockDevice& device, const protocol::Inventory& inventory) {
  switch (device.mount_state) {
    case protocol::MountState::mounted: return "mounted: the agent refuses to write to it";
    case protocol::MountState::partition_mounted: return "a partition is mounted: the agent refuses to write to it";
    case protocol::MountState::swap: return "used as swap: the agent refuses to write to it";
    case protocol::MountState::not_mounted: break;
  }
  if (device.has_signature) return "holds a file system, partition table or RAID signature: refused unless --allow-destructive";
  const bool allowed = std::any_of(inventory.allowed_paths.begin(), inventory.allowed_paths.end(),
                                   [&](const std::string& path) { return path == device.path; });
  return allowed ? std::string() : "not allowed by the agent (start it with --allow " + device.path + ")";
}

}  // namespace

std::vector<TargetChoice> target_choices(const access_specs::Worker& worker, const LiveManager* live) {
  const auto targets = worker.targets.value_or(std::vector<access_specs::Target>{});
  auto order_of = [&](const std::string& name) -> std::size_t {
    for (std::size_t t = 0; t < targets.size(); ++t) {
      if (targets[t].name == name) return t + 1;
    }
    return 0;
  };
  std::vector<TargetChoice> choices;
  auto listed = [&](const std::string& name) {
    return std::any_of(choices.begin(), choices.end(), [&](const TargetChoice& c) { return c.name == name; });
  };
  if (live != nullptr) {
    const auto& inventory = live->inventory;
    for (const auto& device : inventory.block_devices) {
      std::string details = format_size(Bytes(device.size_bytes));
      if (!device.model.empty()) details += ", " + device.model;
      details += ", " + std::to_string(device.logical_sector_bytes) + " B sectors";
      // The embedded agent may be granted a device later (the GUI restarts it with the
      // targets ticked), so only its hard refusals count as warnings.
      auto warning = device_warning(device, inventory);
      if (live->embedded() && warning.starts_with("not allowed")) warning.clear();
      choices.push_back({device.path, "disk", details, "-", warning, "", order_of(device.path)});
    }
    for (const auto& fs : inventory.file_systems) {
      if (listed(fs.mount_point)) continue;
      const std::string details = fs.type + ", " + format_size(Bytes(fs.free_bytes)) + " free of " +
                                  format_size(Bytes(fs.total_bytes)) + " (" + fs.source + ")";
      const std::string test_file = fs.test_file_bytes == 0 ? "none yet: made before the first run"
                                                            : "iobw.tst, " + format_size(Bytes(fs.test_file_bytes));
      // The embedded agent is restarted with the targets ticked, so nothing is outside its scope.
      auto refusal = live->embedded() ? std::nullopt : controller::target_refusal(live->name, inventory, fs.mount_point);
      choices.push_back(
          {fs.mount_point, "file system", details, test_file, "", refusal.value_or(""), order_of(fs.mount_point)});
    }
    for (const auto& path : inventory.allowed_paths) {
      if (listed(path)) continue;
      choices.push_back({path, "path", "allowed by the agent", "file, or a directory for iobw.tst", "", "", order_of(path)});
    }
  }
  for (const auto& target : targets) {
    if (listed(target.name)) continue;
    const bool legacy = target.name.empty() || target.name.front() != '/';
    choices.push_back({target.name, legacy ? "plan name" : "path",
                       legacy ? "an IOmeter name, resolved on the manager at Start" : "typed by hand",
                       legacy ? "-" : "file, or a directory for iobw.tst", "", "", order_of(target.name)});
  }
  return choices;
}

access_specs::Worker with_target(access_specs::Worker worker, const std::string& name, bool ticked) {
  if (!worker.targets) worker.targets.emplace();
  auto& targets = *worker.targets;
  const auto present = std::find_if(targets.begin(), targets.end(),
                                    [&](const access_specs::Target& t) { return t.name == name; });
  if (ticked && present == targets.end()) {
    targets.push_back({name, worker.type, std::nullopt, ""});
  } else if (!ticked && present != targets.end()) {
    targets.erase(present);
  }
  return worker;
}

TargetsModel::TargetsModel(QObject* parent) : ChoiceTableModel(parent) {}

bool TargetsModel::same_row(const TargetChoice& a, const TargetChoice& b) const { return a.name == b.name; }

int TargetsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant TargetsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto& choice = choices_[static_cast<std::size_t>(index.row())];
  if (role == Qt::CheckStateRole && index.column() == target_column) {
    return choice.order != 0 ? Qt::Checked : Qt::Unchecked;
  }
  if (role == Qt::ToolTipRole && !choice.refusal.empty()) return QString::fromStdString(choice.refusal);
  if (role == Qt::ForegroundRole && !choice.warning.empty()) return QBrush(QColor(0x99, 0x33, 0x00));
  if (role == Qt::ToolTipRole && !choice.warning.empty()) return QString::fromStdString(choice.warning);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case target_column: {
      auto text = QString::fromStdString(choice.name);
      if (choice.order != 0) text = QStringLiteral("%1. %2").arg(choice.order).arg(text);
      return text;
    }
    case details_column: {
      auto text = QString::fromStdString(choice.kind + ": " + choice.details);
      if (!choice.warning.empty()) text += QStringLiteral(" (%1)").arg(QString::fromStdString(choice.warning));
      if (!choice.refusal.empty()) text += tr(" (outside the agent's --allow paths)");
      return text;
    }
    case test_file_column: return QString::fromStdString(choice.test_file);
    default: return {};
  }
}

bool TargetsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::CheckStateRole || index.column() != target_column ||
      !checkIndex(index, CheckIndexOption::IndexIsValid)) {
    return false;
  }
  const auto& choice = choices_[static_cast<std::size_t>(index.row())];
  emit toggled(QString::fromStdString(choice.name), value.toInt() == Qt::Checked);
  return true;
}

Qt::ItemFlags TargetsModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  const auto& choice = choices_[static_cast<std::size_t>(index.row())];
  // A target outside the agent's write scope is greyed; a ticked one stays enabled so that
  // it can be unticked (Start refuses a plan naming it).
  if (!choice.refusal.empty() && choice.order == 0) return Qt::ItemIsSelectable;
  auto flags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
  if (index.column() == target_column) flags |= Qt::ItemIsUserCheckable;
  return flags;
}

QVariant TargetsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case target_column: return tr("Target");
    case details_column: return tr("Details");
    case test_file_column: return tr("Test file");
    default: return {};
  }
}

}  // namespace iomark::gui
