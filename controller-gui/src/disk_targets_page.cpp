#include "iomark/gui/disk_targets_page.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <charconv>

#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/access_specs/worker_rate.hpp"
#include "iomark/common/units.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/targets_model.hpp"
#include "table_views.hpp"

namespace iomark::gui {

namespace {

using access_specs::FieldId;

// A whole number the descriptor accepts, or the error to show.
Result<std::uint64_t> parse_field(FieldId id, const QString& text, const std::string& context) {
  const auto bytes = text.trimmed().toStdString();
  std::uint64_t value = 0;
  const auto* end = bytes.data() + bytes.size();
  const auto parsed = std::from_chars(bytes.data(), end, value);
  const auto& field = access_specs::field_descriptor(id);
  if (bytes.empty() || parsed.ec != std::errc() || parsed.ptr != end) {
    return fail(Error(ErrorCode::parse_error, context + ": '" + std::string(field.caption) + "' is \"" + bytes +
                                                  "\", not a whole number")
                    .in_field(std::string(field.key)));
  }
  if (auto fits = access_specs::check_field(id, value, context); !fits) return fail(fits.error());
  return value;
}

// A worker's rate as typed: empty for none, else I/Os per second within a worker's limits.
Result<std::optional<double>> parse_rate(const QString& text, const std::string& context) {
  const auto trimmed = text.trimmed();
  if (trimmed.isEmpty()) return std::optional<double>{};
  bool number = false;
  const double rate = trimmed.toDouble(&number);
  if (!number) {
    return fail(Error(ErrorCode::invalid_argument, context + ": rate \"" + trimmed.toStdString() +
                                                       "\" is not a number of I/Os per second (empty: as fast as "
                                                       "the outstanding I/Os allow)")
                    .in_field("rate_iops"));
  }
  if (auto within = access_specs::check_worker_rate(rate); !within) {
    return fail(Error(ErrorCode::invalid_argument, context + ": " + within.error().message()).in_field("rate_iops"));
  }
  return std::optional<double>(rate);
}

}  // namespace

DiskTargetsPage::DiskTargetsPage(PlanDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
  title_ = new QLabel;
  title_->setWordWrap(true);
  targets_ = new TargetsModel(this);
  view_ = new QTableView;
  view_->setModel(targets_);
  make_compact(*view_, TargetsModel::details_column);
  add_path_ = new QPushButton(tr("Add a path..."));
  add_path_->setToolTip(tr("A file, a device, or a directory where iobw.tst is made"));

  outstanding_ = new QSpinBox;
  const auto& qd = access_specs::field_descriptor(FieldId::outstanding_ios);
  outstanding_->setRange(static_cast<int>(qd.min_value), static_cast<int>(qd.max_value));
  outstanding_->setToolTip(QString::fromStdString(std::string(qd.help)));
  maximum_size_ = new QLineEdit;
  maximum_size_->setToolTip(
      QString::fromStdString(std::string(access_specs::field_descriptor(FieldId::max_disk_size_sectors).help)));
  starting_sector_ = new QLineEdit;
  starting_sector_->setToolTip(
      QString::fromStdString(std::string(access_specs::field_descriptor(FieldId::starting_sector).help)));
  // IOmeter's three patterns and a few reduction patterns; any other reduction can be typed
  // in --data-pattern's words. Item data is that text.
  data_pattern_ = new QComboBox;
  data_pattern_->setEditable(true);
  data_pattern_->setInsertPolicy(QComboBox::NoInsert);
  data_pattern_->addItem(tr("Repeating bytes"), QStringLiteral("repeating"));
  data_pattern_->addItem(tr("Pseudo random"), QStringLiteral("pseudo-random"));
  data_pattern_->addItem(tr("Full random"), QStringLiteral("full-random"));
  for (const auto* reduction : {"compress:2", "compress:4", "dedupe:2", "dedupe:4", "compress:2,dedupe:3"}) {
    data_pattern_->addItem(QString::fromLatin1(reduction), QString::fromLatin1(reduction));
  }
  data_pattern_->setToolTip(tr("IOmeter's patterns, or data a reducing array shrinks as asked: compress:R, "
                               "dedupe:D[/UNIT] or both, e.g. compress:2,dedupe:3/8k (IOmeter reads such a worker "
                               "as full random)"));
  rate_ = new QLineEdit;
  rate_->setObjectName(QStringLiteral("worker_rate_iops"));
  rate_->setPlaceholderText(tr("as fast as the outstanding I/Os allow"));
  rate_->setToolTip(tr("I/Os per second this worker issues on a schedule, latencies counted from each I/O's "
                       "scheduled time (docs/characterize.md#rate-control); kept in the .icf where IOmeter does "
                       "not look. Test Setup's --rate-iops replaces it."));
  test_file_size_ = new QLineEdit(QString::fromStdString(format_size(Bytes(test_file_bytes_))));
  test_file_size_->setToolTip(tr("Size of iobw.tst made in a directory target when Maximum Disk Size is 0"));
  settings_error_ = new QLabel;
  settings_error_->setStyleSheet(QStringLiteral("color: #b00020"));
  settings_error_->setWordWrap(true);

  settings_ = new QWidget;
  auto* form = new QFormLayout(settings_);
  form->setContentsMargins(0, 0, 0, 0);
  form->addRow(tr("# of outstanding I/Os per target"), outstanding_);
  form->addRow(tr("Maximum disk size (sectors, 0 = all)"), maximum_size_);
  form->addRow(tr("Starting disk sector"), starting_sector_);
  form->addRow(tr("Write I/O data pattern"), data_pattern_);
  form->addRow(tr("Rate (I/Os per second)"), rate_);

  auto* general = new QFormLayout;
  general->addRow(tr("New test files when the maximum size is 0"), test_file_size_);

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(add_path_);
  buttons->addStretch(1);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addWidget(view_, 1);
  layout->addLayout(buttons);
  layout->addWidget(settings_);
  layout->addWidget(settings_error_);
  layout->addLayout(general);

  connect(targets_, &TargetsModel::toggled, this, &DiskTargetsPage::toggle);
  connect(add_path_, &QPushButton::clicked, this, &DiskTargetsPage::add_path);
  connect(outstanding_, &QSpinBox::valueChanged, this, &DiskTargetsPage::store_settings);
  connect(data_pattern_, &QComboBox::currentIndexChanged, this, &DiskTargetsPage::store_settings);
  connect(data_pattern_->lineEdit(), &QLineEdit::editingFinished, this, &DiskTargetsPage::store_settings);
  connect(maximum_size_, &QLineEdit::editingFinished, this, &DiskTargetsPage::store_settings);
  connect(starting_sector_, &QLineEdit::editingFinished, this, &DiskTargetsPage::store_settings);
  connect(rate_, &QLineEdit::editingFinished, this, &DiskTargetsPage::store_settings);
  connect(test_file_size_, &QLineEdit::editingFinished, this, [this] {
    const auto size = parse_size(test_file_size_->text().trimmed().toStdString());
    if (size && size->count() > 0) {
      test_file_bytes_ = size->count();  // shown in its canonical form just below
      settings_error_->clear();
    } else {
      settings_error_->setText(tr("\"%1\" is not a size (512M, 1G, 20GiB)").arg(test_file_size_->text()));
    }
    set_test_file_bytes(test_file_bytes_);
  });
  connect(&document_, &PlanDocument::topology_changed, this, &DiskTargetsPage::refresh);
  connect(&document_, &PlanDocument::plan_replaced, this, [this] { show_worker(std::nullopt, std::nullopt, std::nullopt); });
  refresh();
}

void DiskTargetsPage::set_test_file_bytes(std::uint64_t bytes) {
  test_file_bytes_ = bytes;
  test_file_size_->setText(QString::fromStdString(format_size(Bytes(test_file_bytes_))));
}

void DiskTargetsPage::show_worker(std::optional<std::size_t> manager, std::optional<std::size_t> worker,
                                  std::optional<LiveManager> live) {
  manager_ = manager;
  worker_ = worker;
  live_ = std::move(live);
  settings_error_->clear();
  refresh();
}

QString DiskTargetsPage::explanation() const { return title_->text(); }

const access_specs::Worker* DiskTargetsPage::worker() const {
  const auto& managers = document_.managers();
  if (!manager_ || !worker_ || *manager_ >= managers.size()) return nullptr;
  const auto& workers = managers[*manager_].workers;
  return *worker_ < workers.size() ? &workers[*worker_] : nullptr;
}

void DiskTargetsPage::refresh() {
  const auto* shown = worker();
  const bool disk = shown != nullptr && shown->type == access_specs::WorkerType::disk;
  view_->setEnabled(disk);
  add_path_->setEnabled(disk);
  settings_->setEnabled(disk);
  if (!disk) {
    title_->setText(shown == nullptr
                        ? tr("Select a worker in the topology to choose its targets.")
                        : tr("<b>%1</b> is a network worker: its partner and settings are on the Network Targets tab.")
                              .arg(QString::fromStdString(shown->name).toHtmlEscaped()));
    targets_->set_choices({});
    return;
  }
  const auto& manager = document_.managers()[*manager_];
  auto title = tr("Targets of <b>%1</b> on <b>%2</b>")
                   .arg(QString::fromStdString(shown->name).toHtmlEscaped(),
                        QString::fromStdString(manager.name).toHtmlEscaped());
  if (!live_) title += tr(" (not connected: only the plan's targets are known)");
  title_->setText(title);
  targets_->set_choices(target_choices(*shown, live_ ? &*live_ : nullptr));
  loading_ = true;
  outstanding_->setValue(static_cast<int>(shown->outstanding_ios));
  maximum_size_->setText(QString::number(shown->maximum_disk_size_sectors));
  starting_sector_->setText(QString::number(shown->starting_sector));
  const auto pattern = QString::fromStdString(
      access_specs::to_string(access_specs::WriteData{shown->data_pattern, shown->data_reduction}));
  if (const int item = data_pattern_->findData(pattern); item >= 0) {
    data_pattern_->setCurrentIndex(item);
  } else {
    data_pattern_->setEditText(pattern);
  }
  rate_->setText(shown->rate_iops ? QString::number(*shown->rate_iops, 'g', 12) : QString());
  loading_ = false;
}

void DiskTargetsPage::toggle(const QString& name, bool ticked) {
  const auto* shown = worker();
  if (shown == nullptr) return;
  document_.set_worker(*manager_, *worker_, with_target(*shown, name.toStdString(), ticked));
}

void DiskTargetsPage::add_path() {
  if (worker() == nullptr) return;
  bool ok = false;
  const auto path = QInputDialog::getText(this, tr("Add a target"),
                                          tr("Absolute path on the manager: a device, a file, or a directory for iobw.tst"),
                                          QLineEdit::Normal, QStringLiteral("/"), &ok)
                        .trimmed();
  if (!ok || path.isEmpty()) return;
  if (!path.startsWith('/')) {
    settings_error_->setText(tr("\"%1\" is not an absolute path").arg(path));
    return;
  }
  toggle(path, true);
}

void DiskTargetsPage::store_settings() {
  const auto* shown = worker();
  if (loading_ || shown == nullptr) return;
  auto changed = *shown;
  const auto context = "worker '" + shown->name + "'";
  auto maximum = parse_field(FieldId::max_disk_size_sectors, maximum_size_->text(), context);
  auto starting = parse_field(FieldId::starting_sector, starting_sector_->text(), context);
  if (!maximum || !starting) {
    settings_error_->setText(QString::fromStdString((!maximum ? maximum.error() : starting.error()).message()));
    return;
  }
  const int item = data_pattern_->findText(data_pattern_->currentText());
  const auto pattern_text = item >= 0 ? data_pattern_->itemData(item).toString() : data_pattern_->currentText().trimmed();
  const auto write_data = access_specs::parse_write_data(pattern_text.toStdString());
  if (!write_data) {
    settings_error_->setText(QString::fromStdString(write_data.error().message()));
    return;
  }
  const auto rate = parse_rate(rate_->text(), context);
  if (!rate) {
    settings_error_->setText(QString::fromStdString(rate.error().message()));
    return;
  }
  settings_error_->clear();
  changed.rate_iops = *rate;
  changed.outstanding_ios = static_cast<std::uint32_t>(outstanding_->value());
  changed.maximum_disk_size_sectors = *maximum;
  changed.starting_sector = *starting;
  // A reduction keeps the IOmeter number the plan already had for it (a .icf's own choice).
  changed.data_pattern = write_data->reduction && shown->data_reduction ? shown->data_pattern : write_data->pattern;
  changed.data_reduction = write_data->reduction;
  document_.set_worker(*manager_, *worker_, std::move(changed));
}

}  // namespace iomark::gui
