#include "iomark/gui/network_targets_page.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/controller/network_pairing.hpp"
#include "iomark/gui/network_targets_model.hpp"
#include "iomark/gui/plan_document.hpp"
#include "table_views.hpp"

namespace iomark::gui {

namespace {

using access_specs::FieldId;
using access_specs::WorkerType;

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

void limit_from_descriptor(QSpinBox& box, FieldId id) {
  const auto& field = access_specs::field_descriptor(id);
  box.setRange(static_cast<int>(field.min_value), static_cast<int>(field.max_value));
  box.setToolTip(QString::fromStdString(std::string(field.help)));
}

}  // namespace

NetworkTargetsPage::NetworkTargetsPage(PlanDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
  title_ = new QLabel;
  title_->setWordWrap(true);
  targets_ = new NetworkTargetsModel(this);
  view_ = new QTableView;
  view_->setModel(targets_);
  make_compact(*view_, NetworkTargetsModel::details_column);
  pair_status_ = new QLabel;
  pair_status_->setWordWrap(true);

  local_interface_ = new QComboBox;
  local_interface_->setToolTip(tr("The address this worker's server listens on. Chosen at Start: the server's "
                                  "interface in the partner interface's subnet (loopback for a loopback partner)"));
  outstanding_ = new QSpinBox;
  limit_from_descriptor(*outstanding_, FieldId::outstanding_ios);
  // The plan keeps the number (the .icf writes it) but the agents run one transaction at a
  // time on a network target, as IOmeter does: shown so nothing is hidden, not edited.
  outstanding_->setEnabled(false);
  connection_rate_ = new QCheckBox(tr("Test Connection Rate"));
  connection_rate_->setToolTip(tr("Close the connection after Transactions per Connection and open it again; "
                                  "results count connections per second and their times"));
  transactions_ = new QSpinBox;
  limit_from_descriptor(*transactions_, FieldId::transactions_per_connection);

  settings_ = new QWidget;
  auto* form = new QFormLayout(settings_);
  form->setContentsMargins(0, 0, 0, 0);
  form->addRow(tr("Network interface to use for connection"), local_interface_);
  form->addRow(tr("# of outstanding I/Os (network workers run 1)"), outstanding_);
  form->addRow(connection_rate_);
  form->addRow(tr("Transactions per Connection"), transactions_);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addWidget(view_, 1);
  layout->addWidget(pair_status_);
  layout->addWidget(settings_);

  connect(targets_, &NetworkTargetsModel::toggled, this, &NetworkTargetsPage::toggle);
  connect(local_interface_, &QComboBox::currentIndexChanged, this, &NetworkTargetsPage::store_settings);
  connect(connection_rate_, &QCheckBox::toggled, this, &NetworkTargetsPage::store_settings);
  connect(transactions_, &QSpinBox::valueChanged, this, &NetworkTargetsPage::store_settings);
  connect(&document_, &PlanDocument::topology_changed, this, &NetworkTargetsPage::refresh);
  connect(&document_, &PlanDocument::plan_replaced, this, [this] { show_worker(std::nullopt, std::nullopt); });
  refresh();
}

void NetworkTargetsPage::set_live_managers(std::vector<LiveManager> live) {
  if (live == live_) return;
  live_ = std::move(live);
  refresh();
}

void NetworkTargetsPage::show_worker(std::optional<std::size_t> manager, std::optional<std::size_t> worker) {
  manager_ = manager;
  worker_ = worker;
  refresh();
}

QString NetworkTargetsPage::explanation() const { return title_->text(); }

QString NetworkTargetsPage::pair_status() const { return pair_status_->text(); }

const LiveManager* NetworkTargetsPage::live_of(std::size_t plan_manager) const {
  // As Start pairs them (pair_managers()), so the interfaces shown are those the run uses.
  const auto paired = pair_managers(document_.managers(), live_);
  return plan_manager < paired.size() && paired[plan_manager] ? &live_[*paired[plan_manager]] : nullptr;
}

const access_specs::Worker* NetworkTargetsPage::worker() const {
  const auto& managers = document_.managers();
  if (!manager_ || !worker_ || *manager_ >= managers.size()) return nullptr;
  const auto& workers = managers[*manager_].workers;
  return *worker_ < workers.size() ? &workers[*worker_] : nullptr;
}

void NetworkTargetsPage::refresh() {
  const auto* shown = worker();
  const bool editable = shown != nullptr && shown->type == WorkerType::network_tcp;
  view_->setEnabled(editable);
  settings_->setEnabled(editable);
  pair_status_->clear();
  if (shown == nullptr) {
    title_->setText(tr("Select a network worker in the topology to choose its partner "
                       "(Managers > Add Network Worker makes one)."));
  } else if (shown->type == WorkerType::disk) {
    title_->setText(tr("<b>%1</b> is a disk worker: its targets are on the Disk Targets tab. A network worker "
                       "(Managers > Add Network Worker) is paired here with an interface of a manager.")
                        .arg(html(shown->name)));
  } else if (shown->type == WorkerType::network_vi) {
    title_->setText(tr("<b>%1</b> is a VI network worker: the plan keeps it as written, but only TCP workers run.")
                        .arg(html(shown->name)));
  }
  if (!editable) {
    targets_->set_choices({});
    loading_ = true;  // emptying the box is no edit of the worker now shown
    local_interface_->clear();
    loading_ = false;
    return;
  }

  const auto& managers = document_.managers();
  const auto& manager = managers[*manager_];
  // The connected manager running each plan manager, as Start pairs them.
  const auto paired = pair_managers(managers, live_);
  std::vector<const LiveManager*> live_of_plan(managers.size(), nullptr);
  for (std::size_t m = 0; m < managers.size(); ++m) {
    if (paired[m]) live_of_plan[m] = &live_[*paired[m]];
  }
  title_->setText(tr("Partner of <b>%1</b> on <b>%2</b>: tick the interface its client connects from. The "
                     "client worker runs on that interface's manager; ticking another moves it, unticking "
                     "removes it.")
                      .arg(html(shown->name), html(manager.name)));
  targets_->set_choices(network_choices(managers, *shown, *manager_, live_of_plan));

  const auto& choices = targets_->choices();
  const auto partner = std::find_if(choices.begin(), choices.end(), [](const NetworkChoice& c) { return c.partner; });
  if (partner != choices.end()) {
    pair_status_->setText(tr("Paired: the server listens on %1; its client \"%2 (client)\" runs on <b>%3</b> and "
                             "connects from %4.")
                              .arg(shown->local_network_interface.empty()
                                       ? tr("the interface in %1's subnet").arg(html(partner->address))
                                       : html(shown->local_network_interface),
                                   html(shown->name), html(partner->manager), html(partner->address)));
  } else if (shown->targets && !shown->targets->empty()) {
    pair_status_->setText(tr("The worker names %1 on manager '%2', which is not in the plan: tick an interface "
                             "to pair it again.")
                              .arg(html(shown->targets->front().name), html(shown->targets->front().remote_manager_name)));
  } else {
    pair_status_->setText(tr("Not paired: Start runs no client for this worker until an interface is ticked."));
  }

  loading_ = true;
  local_interface_->clear();
  local_interface_->addItem(tr("Chosen at Start (the one in the partner's subnet)"), QString());
  const LiveManager* own = live_of_plan[*manager_];
  if (own != nullptr) {
    for (const auto& nic : own->inventory.interfaces) {
      local_interface_->addItem(QString::fromStdString(describe_interface(nic)), QString::fromStdString(nic.address));
    }
  }
  const auto current = QString::fromStdString(shown->local_network_interface);
  int item = local_interface_->findData(current);
  if (item < 0 && own != nullptr) {
    // A name (eth0) the inventory lists: its address's item.
    if (const auto* nic = controller::find_interface(own->inventory, shown->local_network_interface)) {
      item = local_interface_->findData(QString::fromStdString(nic->address));
    }
  }
  if (item < 0) {
    local_interface_->addItem(own != nullptr ? tr("%1 (not an interface of this manager: ignored at Start)").arg(current)
                                             : tr("%1 (as the plan names it)").arg(current),
                              current);
    item = local_interface_->count() - 1;
  }
  local_interface_->setCurrentIndex(item);
  outstanding_->setValue(static_cast<int>(shown->outstanding_ios));
  connection_rate_->setChecked(shown->test_connection_rate);
  transactions_->setValue(static_cast<int>(shown->transactions_per_connection));
  transactions_->setEnabled(shown->test_connection_rate);
  loading_ = false;
}

void NetworkTargetsPage::toggle(int row, bool ticked) {
  const auto* shown = worker();
  const auto& choices = targets_->choices();
  if (shown == nullptr || row < 0 || static_cast<std::size_t>(row) >= choices.size()) return;
  const auto& choice = choices[static_cast<std::size_t>(row)];
  if (ticked) {
    document_.set_worker(*manager_, *worker_, with_partner(*shown, &choice));
  } else if (choice.partner) {
    document_.set_worker(*manager_, *worker_, with_partner(*shown, nullptr));
  }
}

void NetworkTargetsPage::store_settings() {
  const auto* shown = worker();
  if (loading_ || shown == nullptr || shown->type != WorkerType::network_tcp) return;
  auto changed = *shown;
  const auto chosen = local_interface_->currentData().toString().toStdString();
  const auto* own = live_of(*manager_);
  const auto* named = own != nullptr ? controller::find_interface(own->inventory, changed.local_network_interface) : nullptr;
  // A name the plan had for the chosen interface (eth0 for its address) stays as written.
  if (local_interface_->currentIndex() >= 0 && (named == nullptr || named->address != chosen)) {
    changed.local_network_interface = chosen;
  }
  changed.test_connection_rate = connection_rate_->isChecked();
  changed.transactions_per_connection = static_cast<std::uint32_t>(transactions_->value());
  document_.set_worker(*manager_, *worker_, std::move(changed));
}

}  // namespace iomark::gui
