#include "iomark/gui/test_setup_page.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <QStringList>
#include <algorithm>
#include <climits>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/access_specs/pts_iops.hpp"
#include "iomark/history/history.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/run_models.hpp"
#include "iomark/gui/wording.hpp"
#include "iomark/run_options/run_flags.hpp"
#include "table_views.hpp"

namespace iomark::gui {

namespace {

using access_specs::FieldId;
using access_specs::StepType;
using access_specs::TestType;

// Spin boxes hold int; descriptors allow up to 2^64-1 for some fields but the ones used here
// stay far below INT_MAX except run time, which is clamped.
int clamp_int(std::uint64_t value) { return static_cast<int>(std::min<std::uint64_t>(value, INT_MAX)); }

QSpinBox* spin_for(FieldId id, const QString& suffix = {}) {
  const auto& field = access_specs::field_descriptor(id);
  auto* spin = new QSpinBox;
  spin->setRange(clamp_int(field.min_value), clamp_int(field.max_value));
  spin->setToolTip(QString::fromStdString(std::string(field.caption) + ": " + std::string(field.help)));
  if (!suffix.isEmpty()) spin->setSuffix(suffix);
  spin->setAccelerated(true);
  return spin;
}

struct TypeCaption {
  TestType type;
  const char* caption;
};

constexpr TypeCaption kTypes[] = {
    {TestType::normal, "Normal: every worker runs each of its specs once"},
    {TestType::cycle_targets, "Cycle # targets"},
    {TestType::cycle_workers, "Cycle # workers"},
    {TestType::increment_targets_parallel, "Increment targets parallel"},
    {TestType::increment_targets_serial, "Increment targets serial"},
    {TestType::cycle_workers_and_targets, "Cycle # workers and targets"},
    {TestType::cycle_outstanding_ios, "Cycle # outstanding I/Os"},
    {TestType::cycle_outstanding_ios_and_targets, "Cycle # outstanding I/Os and targets"},
};

struct FigureCaption {
  access_specs::SteadyFigure figure;
  const char* caption;
};

constexpr FigureCaption kSteadyFigures[] = {
    {access_specs::SteadyFigure::iops, "IOPS"},
    {access_specs::SteadyFigure::mb_per_s, "MB/s"},
    {access_specs::SteadyFigure::average_ms, "Average response time"},
    {access_specs::SteadyFigure::p99_ms, "99th percentile response time"},
};

// The steady-state choice's item data when the series runs once, apart from every figure's.
constexpr int kSteadyStateOff = -1;

struct BoundCaption {
  access_specs::LatencyFigure figure;
  const char* caption;
};

constexpr BoundCaption kBoundFigures[] = {
    {access_specs::LatencyFigure::average_ms, "Average response time"},
    {access_specs::LatencyFigure::p99_ms, "99th percentile response time"},
    {access_specs::LatencyFigure::p99_9_ms, "99.9th percentile response time"},
};

// What a search is first offered with: docs/characterize.md's example, p99 <= 2 ms.
constexpr access_specs::LatencyBound kDefaultBound{.figure = access_specs::LatencyFigure::p99_ms, .limit_ms = 2.0};

// "p99 <= 2 ms", as `iomark run` writes the bound.
QString bound_text(const access_specs::LatencyBound& bound) {
  return QStringLiteral("%1 <= %2 ms")
      .arg(QString::fromStdString(std::string(access_specs::to_string(bound.figure))),
           QString::number(bound.limit_ms, 'g', 6));
}

constexpr std::uint32_t kDefaultPreconditionPasses = 2;  // `iomark run --precondition`'s
constexpr const char* kSequentialPrecondition = QT_TRANSLATE_NOOP("TestSetupPage", "128 KiB sequential writes");

// "1M", "128K", "512": a block size as --block-sizes takes it.
std::string block_size_flag_text(std::uint64_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes);
}

QString block_sizes_text(const std::vector<std::uint64_t>& sizes) {
  QStringList items;
  for (const auto bytes : sizes) items << QString::fromStdString(block_size_flag_text(bytes));
  return items.join(QLatin1Char(','));
}

QString mixes_text(const std::vector<std::uint32_t>& read_percents) {
  QStringList items;
  for (const auto reads : read_percents) items << QString::fromStdString(access_specs::pts_mix_text(reads));
  return items.join(QLatin1Char(','));
}

// The tracked cell's spec name: the run of each round whose IOPS is judged steady.
std::string pts_tracked_spec() {
  return access_specs::pts_iops_spec(access_specs::kPtsTrackedBlockBytes, access_specs::kPtsTrackedReadPercent).name;
}

}  // namespace

TestSetupPage::TestSetupPage(PlanDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
  description_ = new QLineEdit;
  description_->setPlaceholderText(tr("Recorded in the results"));
  run_time_ = spin_for(FieldId::run_time, tr(" s"));
  run_time_->setMinimum(1);  // a series needs an end: 0 ("until stopped") cannot be run here
  ramp_up_ = spin_for(FieldId::ramp_up, tr(" s"));
  record_ = new QComboBox;
  record_->addItem(tr("All: managers, workers and targets"), static_cast<int>(access_specs::RecordResults::all));
  record_->addItem(tr("No targets"), static_cast<int>(access_specs::RecordResults::no_targets));
  record_->addItem(tr("No workers"), static_cast<int>(access_specs::RecordResults::no_workers));
  record_->addItem(tr("No managers"), static_cast<int>(access_specs::RecordResults::no_managers));
  record_->addItem(tr("None"), static_cast<int>(access_specs::RecordResults::none));
  test_type_ = new QComboBox;
  for (const auto& info : kTypes) test_type_->addItem(tr(info.caption), static_cast<int>(info.type));

  results_file_ = new QLineEdit;
  results_file_->setPlaceholderText(tr("none: keep results for File > Save Results As"));
  auto* browse = new QPushButton(tr("Browse..."));
  connect(browse, &QPushButton::clicked, this, [this] {
    const auto path = QFileDialog::getSaveFileName(this, tr("Append results to"), results_file_->text(),
                                                   tr("IOmeter results (*.csv)"), nullptr,
                                                   QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) results_file_->setText(path);
  });
  auto* results_row = new QHBoxLayout;
  results_row->addWidget(results_file_, 1);
  results_row->addWidget(browse);

  history_database_ = new QLineEdit;
  history_database_->setPlaceholderText(
      tr("none (iomark history reads %1)").arg(QString::fromStdString(history::default_database_path())));
  metrics_listen_ = new QLineEdit;
  metrics_listen_->setPlaceholderText(tr("none, or [ADDR:]PORT for Prometheus (e.g. 9464)"));

  steady_figure_ = new QComboBox;
  steady_figure_->setObjectName(QStringLiteral("steady_state"));
  steady_figure_->addItem(tr("Off: each run once"), kSteadyStateOff);
  for (const auto& info : kSteadyFigures) steady_figure_->addItem(tr(info.caption), static_cast<int>(info.figure));
  steady_figure_->setToolTip(tr("Repeat the series in rounds until this figure of its last run is steady: over the "
                                "last 5 rounds within 20% of their average, and their least-squares line moving "
                                "less than 10% of it (SNIA's rule; iomark run --steady-state)"));
  max_rounds_ = new QSpinBox;
  max_rounds_->setObjectName(QStringLiteral("max_rounds"));
  max_rounds_->setRange(static_cast<int>(run_options::kMinSteadyRounds), static_cast<int>(run_options::kMaxSteadyRounds));
  max_rounds_->setValue(static_cast<int>(access_specs::SteadyStateRequest{}.max_rounds));
  max_rounds_->setToolTip(tr("Rounds the series runs at most when it does not become steady (iomark run --max-rounds)"));
  max_rounds_->setEnabled(false);

  search_ = new QCheckBox(tr("Find max &IOPS"));
  search_->setObjectName(QStringLiteral("find_max_iops"));
  search_->setToolTip(tr("Search from the plan's one run for the most IOPS whose latency stays within the bound: its "
                         "outstanding I/Os doubled until the bound breaks, then its rate bisected to within 2%; "
                         "every step is a run (iomark run --find-max-iops)"));
  search_figure_ = new QComboBox;
  search_figure_->setObjectName(QStringLiteral("find_max_iops_figure"));
  for (const auto& info : kBoundFigures) search_figure_->addItem(tr(info.caption), static_cast<int>(info.figure));
  search_limit_ = new QDoubleSpinBox;
  search_limit_->setObjectName(QStringLiteral("find_max_iops_limit"));
  search_limit_->setDecimals(3);  // to the microsecond, the latency histogram's resolution
  search_limit_->setRange(access_specs::kMinLatencyBoundMs, access_specs::kMaxLatencyBoundMs);
  search_limit_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  search_limit_->setSuffix(tr(" ms"));
  search_limit_->setToolTip(tr("The latency limit in milliseconds (0.001 to 60000)"));
  search_bound_ = new QWidget;
  auto* search_row = new QHBoxLayout(search_bound_);
  search_row->setContentsMargins(0, 0, 0, 0);
  search_row->addWidget(search_figure_);
  search_row->addWidget(new QLabel(tr("at or below")));
  search_row->addWidget(search_limit_);
  search_row->addStretch(1);
  set_find_max_iops(std::nullopt);
  search_bound_->setEnabled(false);

  precondition_ = new QCheckBox(tr("&Precondition"));
  precondition_->setObjectName(QStringLiteral("precondition"));
  precondition_->setToolTip(tr("Write every target whole with 128 KiB sequential writes before its first run, on every "
                               "manager at once: SNIA's preconditioning (iomark run --precondition)"));
  precondition_passes_ = new QSpinBox;
  precondition_passes_->setObjectName(QStringLiteral("precondition_passes"));
  precondition_passes_->setRange(1, static_cast<int>(access_specs::kMaxPreconditionPasses));
  precondition_passes_->setValue(static_cast<int>(kDefaultPreconditionPasses));
  precondition_passes_->setSuffix(tr(" passes"));
  precondition_passes_->setToolTip(tr("Times each target is written whole (iomark run --precondition-passes)"));
  precondition_passes_->setEnabled(false);
  // Editable: a plan's own spec is named by typing it, as --precondition-spec takes it.
  precondition_spec_ = new QComboBox;
  precondition_spec_->setObjectName(QStringLiteral("precondition_spec"));
  precondition_spec_->setEditable(true);
  precondition_spec_->setInsertPolicy(QComboBox::NoInsert);
  precondition_spec_->addItem(tr(kSequentialPrecondition));
  for (const auto list : {access_specs::storage_pattern_specs(), access_specs::iometer_default_specs()}) {
    for (const auto& spec : list) {
      if (access_specs::writes(spec)) precondition_spec_->addItem(QString::fromStdString(spec.name));
    }
  }
  precondition_spec_->setToolTip(tr("What the passes are made of: 128 KiB sequential writes, or the writes of an access "
                                    "specification, the plan's or a built-in one, from 16 streams at once (iomark run "
                                    "--precondition-spec)"));
  precondition_spec_->setEnabled(false);
  auto* precondition_row = new QWidget;
  auto* precondition_layout = new QHBoxLayout(precondition_row);
  precondition_layout->setContentsMargins(0, 0, 0, 0);
  precondition_layout->addWidget(precondition_passes_);
  auto* precondition_with = new QLabel(tr("i&n"));
  precondition_with->setBuddy(precondition_spec_);
  precondition_layout->addWidget(precondition_with);
  precondition_layout->addWidget(precondition_spec_, 1);

  const access_specs::PtsIopsMatrix pts_default;
  pts_ = new QCheckBox(tr("Run the plan's one run as SNIA's PTS I&OPS test"));
  pts_->setObjectName(QStringLiteral("pts_iops"));
  pts_->setToolTip(tr("Every round runs each read/write mix with each block size, 100% random, until the IOPS of 4 KiB "
                      "random writes (0/100) is steady; preconditioned first (iomark pts iops)"));
  pts_block_sizes_ = new QLineEdit(block_sizes_text(pts_default.block_bytes));
  pts_block_sizes_->setObjectName(QStringLiteral("pts_block_sizes"));
  pts_block_sizes_->setToolTip(tr("The block sizes of each round, in order: multiples of 512 bytes up to 1M, holding 4K "
                                  "(iomark pts iops --block-sizes)"));
  pts_mixes_ = new QLineEdit(mixes_text(pts_default.read_percents));
  pts_mixes_->setObjectName(QStringLiteral("pts_mixes"));
  pts_mixes_->setToolTip(tr("The read/write mixes of each round, in order, holding 0/100 (iomark pts iops --mixes)"));
  pts_max_rounds_ = new QSpinBox;
  pts_max_rounds_->setObjectName(QStringLiteral("pts_max_rounds"));
  pts_max_rounds_->setRange(static_cast<int>(run_options::kMinSteadyRounds), static_cast<int>(run_options::kMaxSteadyRounds));
  pts_max_rounds_->setValue(static_cast<int>(access_specs::SteadyStateRequest{}.max_rounds));
  pts_max_rounds_->setToolTip(tr("Rounds run at most while 4 KiB random writes are not steady (iomark pts iops --max-rounds)"));
  pts_error_ = new QLabel;
  pts_error_->setObjectName(QStringLiteral("pts_error"));
  pts_error_->setStyleSheet(QStringLiteral("color: #b00020"));
  pts_error_->setWordWrap(true);
  pts_error_->hide();
  // One row of editors: the page is tall already.
  auto* pts_box = new QGroupBox(tr("PTS IOPS test"));
  auto* pts_editors = new QHBoxLayout;
  const auto add_editor = [pts_editors](const QString& caption, QWidget* editor, int stretch) {
    auto* label = new QLabel(caption);
    label->setBuddy(editor);
    pts_editors->addWidget(label);
    pts_editors->addWidget(editor, stretch);
  };
  add_editor(tr("&Block sizes"), pts_block_sizes_, 2);
  add_editor(tr("Mixes (read/&write %)"), pts_mixes_, 2);
  add_editor(tr("Max ro&unds"), pts_max_rounds_, 0);
  auto* pts_layout = new QVBoxLayout(pts_box);
  pts_layout->addWidget(pts_);
  pts_layout->addLayout(pts_editors);
  pts_layout->addWidget(pts_error_);
  for (auto* editor : std::initializer_list<QWidget*>{pts_block_sizes_, pts_mixes_, pts_max_rounds_}) {
    editor->setEnabled(false);
  }

  auto* form = new QFormLayout;
  form->addRow(tr("Test description"), description_);
  form->addRow(tr("Run time"), run_time_);
  form->addRow(tr("Ramp-up time"), ramp_up_);
  form->addRow(tr("Stead&y state"), steady_figure_);
  form->addRow(tr("Ma&x rounds"), max_rounds_);
  form->addRow(search_, search_bound_);
  form->addRow(precondition_, precondition_row);
  form->addRow(tr("Record results"), record_);
  form->addRow(tr("Append to results file"), results_row);
  form->addRow(tr("Record runs in history"), history_database_);
  form->addRow(tr("Serve live metrics on"), metrics_listen_);
  form->addRow(tr("Cycling options"), test_type_);

  workers_ = make_cycling(tr("Workers"), FieldId::worker_cycling_start, std::nullopt, FieldId::worker_cycling_step);
  targets_ = make_cycling(tr("Targets"), FieldId::target_cycling_start, std::nullopt, FieldId::target_cycling_step);
  queue_depth_ = make_cycling(tr("# of outstanding I/Os"), FieldId::queue_depth_start, FieldId::queue_depth_end,
                              FieldId::queue_depth_step);
  auto* cycling = new QHBoxLayout;
  cycling->addWidget(workers_.box);
  cycling->addWidget(targets_.box);
  cycling->addWidget(queue_depth_.box);

  preview_ = new RunPreviewModel(this);
  preview_view_ = new QTableView;
  preview_view_->setModel(preview_);
  make_compact(*preview_view_, RunPreviewModel::description_column);
  preview_summary_ = new QLabel;
  preview_summary_->setWordWrap(true);

  auto* preview_box = new QGroupBox(tr("Runs of this plan"));
  auto* preview_layout = new QVBoxLayout(preview_box);
  preview_layout->addWidget(preview_summary_);
  preview_layout->addWidget(preview_view_);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(pts_box);
  layout->addLayout(cycling);
  layout->addWidget(preview_box, 1);

  for (auto* spin : {run_time_, ramp_up_, workers_.start, workers_.step, targets_.start, targets_.step,
                     queue_depth_.start, queue_depth_.end, queue_depth_.step}) {
    connect(spin, &QSpinBox::valueChanged, this, &TestSetupPage::store);
  }
  for (auto* combo : {record_, test_type_, workers_.type, targets_.type, queue_depth_.type}) {
    connect(combo, &QComboBox::currentIndexChanged, this, &TestSetupPage::store);
  }
  connect(description_, &QLineEdit::textEdited, this, &TestSetupPage::store);
  // Not the plan's (an .icf has no place for it): it changes only the preview.
  connect(steady_figure_, &QComboBox::currentIndexChanged, this, [this] {
    max_rounds_->setEnabled(steady_figure_->currentData().toInt() != kSteadyStateOff);
    refresh_preview();
  });
  connect(max_rounds_, &QSpinBox::valueChanged, this, &TestSetupPage::refresh_preview);
  // A search is not run in rounds (the core refuses both): the search turns steady state off.
  connect(search_, &QCheckBox::toggled, this, [this](bool on) {
    search_bound_->setEnabled(on);
    if (on) steady_figure_->setCurrentIndex(steady_figure_->findData(kSteadyStateOff));
    steady_figure_->setEnabled(!on);
    refresh_preview();
  });
  connect(precondition_, &QCheckBox::toggled, this, [this](bool on) {
    precondition_passes_->setEnabled(on);
    precondition_spec_->setEnabled(on);
    refresh_preview();
  });
  connect(precondition_passes_, &QSpinBox::valueChanged, this, &TestSetupPage::refresh_preview);
  connect(precondition_spec_, &QComboBox::currentTextChanged, this, &TestSetupPage::refresh_preview);
  connect(pts_, &QCheckBox::toggled, this, [this](bool on) {
    apply_pts_locks(on);
    show_pts_error();
    refresh_preview();
  });
  for (auto* text : {pts_block_sizes_, pts_mixes_}) {
    connect(text, &QLineEdit::textChanged, this, [this] {
      show_pts_error();
      refresh_preview();
    });
  }
  connect(pts_max_rounds_, &QSpinBox::valueChanged, this, &TestSetupPage::refresh_preview);
  connect(search_figure_, &QComboBox::currentIndexChanged, this, &TestSetupPage::refresh_preview);
  connect(search_limit_, &QDoubleSpinBox::valueChanged, this, &TestSetupPage::refresh_preview);
  connect(&document_, &PlanDocument::plan_replaced, this, &TestSetupPage::load);
  connect(&document_, &PlanDocument::setup_changed, this, &TestSetupPage::load);
  connect(&document_, &PlanDocument::topology_changed, this, &TestSetupPage::refresh_preview);
  connect(&document_, &PlanDocument::specs_changed, this, &TestSetupPage::refresh_preview);
  load();
}

TestSetupPage::CyclingEditors TestSetupPage::make_cycling(const QString& title, FieldId start,
                                                          std::optional<FieldId> end, FieldId step) {
  CyclingEditors editors;
  editors.box = new QGroupBox(title);
  editors.start = spin_for(start);
  editors.step = spin_for(step);
  editors.type = new QComboBox;
  editors.type->addItem(tr("Linear (+ step)"), static_cast<int>(StepType::linear));
  editors.type->addItem(tr("Exponential (x step)"), static_cast<int>(StepType::exponential));
  auto* form = new QFormLayout(editors.box);
  form->addRow(tr("Start"), editors.start);
  if (end) {
    editors.end = spin_for(*end);
    form->addRow(tr("End"), editors.end);
  }
  form->addRow(tr("Step"), editors.step);
  form->addRow(tr("Stepping"), editors.type);
  return editors;
}

QString TestSetupPage::results_file() const { return results_file_->text().trimmed(); }

void TestSetupPage::set_results_file(const QString& path) { results_file_->setText(path); }

QString TestSetupPage::history_database() const { return history_database_->text().trimmed(); }

void TestSetupPage::set_history_database(const QString& path) { history_database_->setText(path); }

QString TestSetupPage::metrics_listen() const { return metrics_listen_->text().trimmed(); }

void TestSetupPage::set_metrics_listen(const QString& address) { metrics_listen_->setText(address); }

std::optional<access_specs::SteadyStateRequest> TestSetupPage::steady_state() const {
  if (pts_->isChecked()) {
    return access_specs::SteadyStateRequest{.figure = access_specs::SteadyFigure::iops,
                                            .max_rounds = static_cast<std::uint32_t>(pts_max_rounds_->value()),
                                            .tracked_spec = pts_tracked_spec()};
  }
  const int figure = steady_figure_->currentData().toInt();
  if (figure == kSteadyStateOff) return std::nullopt;
  return access_specs::SteadyStateRequest{.figure = static_cast<access_specs::SteadyFigure>(figure),
                                          .max_rounds = static_cast<std::uint32_t>(max_rounds_->value())};
}

void TestSetupPage::set_steady_state(const std::optional<access_specs::SteadyStateRequest>& rounds) {
  if (rounds) max_rounds_->setValue(clamp_int(rounds->max_rounds));
  steady_figure_->setCurrentIndex(
      steady_figure_->findData(rounds ? static_cast<int>(rounds->figure) : kSteadyStateOff));
}

std::optional<access_specs::LatencyBound> TestSetupPage::find_max_iops() const {
  if (!search_->isChecked()) return std::nullopt;
  return access_specs::LatencyBound{.figure = static_cast<access_specs::LatencyFigure>(search_figure_->currentData().toInt()),
                                    .limit_ms = search_limit_->value()};
}

void TestSetupPage::set_find_max_iops(const std::optional<access_specs::LatencyBound>& bound) {
  const auto shown = bound.value_or(kDefaultBound);
  search_figure_->setCurrentIndex(search_figure_->findData(static_cast<int>(shown.figure)));
  search_limit_->setValue(shown.limit_ms);
  search_->setChecked(bound.has_value());
}

std::uint32_t TestSetupPage::precondition_passes() const {
  return precondition_->isChecked() ? static_cast<std::uint32_t>(precondition_passes_->value()) : 0;
}

void TestSetupPage::set_precondition_passes(std::uint32_t passes) {
  if (passes > 0) precondition_passes_->setValue(clamp_int(passes));
  // Under the PTS IOPS test the box stays ticked: the choice is given back when it ends.
  if (before_pts_) {
    before_pts_->precondition = passes > 0;
  } else {
    precondition_->setChecked(passes > 0);
  }
}

std::string TestSetupPage::precondition_spec() const {
  const QString text = precondition_spec_->currentText().trimmed();
  if (precondition_passes() == 0 || text.isEmpty() || text == tr(kSequentialPrecondition)) return {};
  return text.toStdString();
}

void TestSetupPage::set_precondition_spec(const std::string& name) {
  precondition_spec_->setCurrentText(name.empty() ? tr(kSequentialPrecondition) : QString::fromStdString(name));
}

Result<access_specs::PtsIopsMatrix> TestSetupPage::typed_pts_matrix() const {
  access_specs::PtsIopsMatrix matrix;
  auto sizes = access_specs::parse_pts_block_sizes(pts_block_sizes_->text().toStdString());
  if (!sizes) return fail(sizes.error());
  matrix.block_bytes = std::move(*sizes);
  auto mixes = access_specs::parse_pts_mixes(pts_mixes_->text().toStdString());
  if (!mixes) return fail(mixes.error());
  matrix.read_percents = std::move(*mixes);
  if (auto held = access_specs::check_pts_matrix(matrix); !held) return fail(held.error());
  return matrix;
}

Result<std::optional<access_specs::PtsIopsMatrix>> TestSetupPage::pts_iops() const {
  if (!pts_->isChecked()) return std::optional<access_specs::PtsIopsMatrix>();
  auto matrix = typed_pts_matrix();
  if (!matrix) return fail(matrix.error());
  return std::optional<access_specs::PtsIopsMatrix>(std::move(*matrix));
}

void TestSetupPage::set_pts_iops(const std::optional<access_specs::PtsIopsMatrix>& matrix, std::uint32_t max_rounds) {
  if (matrix) {
    pts_block_sizes_->setText(block_sizes_text(matrix->block_bytes));
    pts_mixes_->setText(mixes_text(matrix->read_percents));
    pts_max_rounds_->setValue(clamp_int(max_rounds));
  }
  pts_->setChecked(matrix.has_value());
}

void TestSetupPage::apply_pts_locks(bool pts_on) {
  for (auto* editor : std::initializer_list<QWidget*>{pts_block_sizes_, pts_mixes_, pts_max_rounds_}) {
    editor->setEnabled(pts_on);
  }
  if (pts_on && !before_pts_) {
    before_pts_ = BeforePts{.steady_index = steady_figure_->currentIndex(), .precondition = precondition_->isChecked()};
    // The test is its own rounds (IOPS, judged on 4 KiB random writes), never a search, and
    // always preconditioned, as `iomark pts iops` is.
    search_->setChecked(false);
    steady_figure_->setCurrentIndex(steady_figure_->findData(static_cast<int>(access_specs::SteadyFigure::iops)));
    precondition_->setChecked(true);
  } else if (!pts_on && before_pts_) {
    const auto before = *std::exchange(before_pts_, std::nullopt);
    steady_figure_->setCurrentIndex(before.steady_index);
    precondition_->setChecked(before.precondition);
  }
  search_->setEnabled(!pts_on);
  steady_figure_->setEnabled(!pts_on && !search_->isChecked());
  max_rounds_->setEnabled(!pts_on && steady_figure_->currentData().toInt() != kSteadyStateOff);
  precondition_->setEnabled(!pts_on);
}

void TestSetupPage::show_pts_error() {
  const auto matrix = pts_->isChecked() ? typed_pts_matrix() : Result<access_specs::PtsIopsMatrix>();
  if (matrix) {
    pts_error_->clear();
    pts_error_->hide();
    return;
  }
  const auto& error = matrix.error();
  const auto caption = error.field() == "--mixes" ? tr("Mixes") : tr("Block sizes");
  pts_error_->setText(tr("%1: %2").arg(caption, QString::fromStdString(error.message())));
  pts_error_->show();
}

int TestSetupPage::preview_run_count() const { return preview_->rowCount(); }

void TestSetupPage::load() {
  loading_ = true;
  const auto setup = document_.setup();
  if (description_->text().toStdString() != setup.description) {
    description_->setText(QString::fromStdString(setup.description));
  }
  run_time_->setValue(clamp_int(setup.run_time_s));
  ramp_up_->setValue(clamp_int(setup.ramp_up_s));
  record_->setCurrentIndex(record_->findData(static_cast<int>(setup.record_results)));
  test_type_->setCurrentIndex(test_type_->findData(static_cast<int>(setup.test_type)));
  auto load_cycling = [](CyclingEditors& editors, std::uint32_t start, std::uint32_t step, StepType type) {
    editors.start->setValue(clamp_int(start));
    editors.step->setValue(clamp_int(step));
    editors.type->setCurrentIndex(editors.type->findData(static_cast<int>(type)));
  };
  load_cycling(workers_, setup.worker_cycling.start, setup.worker_cycling.step, setup.worker_cycling.step_type);
  load_cycling(targets_, setup.target_cycling.start, setup.target_cycling.step, setup.target_cycling.step_type);
  const auto& qd = setup.queue_depth_cycling;
  load_cycling(queue_depth_, qd.start, qd.step, qd.step_type);
  queue_depth_.end->setValue(clamp_int(qd.end));
  const auto cycles = access_specs::traits_of(setup.test_type);
  workers_.box->setEnabled(cycles.cycles_workers);
  targets_.box->setEnabled(cycles.cycles_targets);
  queue_depth_.box->setEnabled(cycles.cycles_outstanding_ios);
  loading_ = false;
  refresh_preview();
}

void TestSetupPage::store() {
  if (loading_) return;
  auto setup = document_.setup();
  setup.description = description_->text().toStdString();
  setup.run_time_s = static_cast<std::uint32_t>(run_time_->value());
  setup.ramp_up_s = static_cast<std::uint32_t>(ramp_up_->value());
  setup.record_results = static_cast<access_specs::RecordResults>(record_->currentData().toInt());
  setup.test_type = static_cast<TestType>(test_type_->currentData().toInt());
  auto cycling_of = [](const CyclingEditors& editors) {
    return access_specs::Cycling{static_cast<std::uint32_t>(editors.start->value()),
                                 static_cast<std::uint32_t>(editors.step->value()),
                                 static_cast<StepType>(editors.type->currentData().toInt())};
  };
  setup.worker_cycling = cycling_of(workers_);
  setup.target_cycling = cycling_of(targets_);
  const auto qd = cycling_of(queue_depth_);
  setup.queue_depth_cycling = {qd.start, static_cast<std::uint32_t>(queue_depth_.end->value()), qd.step, qd.step_type};
  document_.set_setup(setup);
}

void TestSetupPage::refresh_preview() {
  const auto rows = preview_runs(document_.plan());
  if (!rows) {
    preview_->set_rows({});
    preview_summary_->setText(QString::fromStdString(rows.error().describe()));
    return;
  }
  preview_->set_rows(*rows);
  const auto setup = document_.setup();
  if (rows->empty()) {
    preview_summary_->setText(tr("No run yet: give a worker a target (Disk Targets) and an access specification."));
    return;
  }
  const double run_seconds = setup.run_time_s + setup.ramp_up_s;
  const double seconds = static_cast<double>(rows->size()) * run_seconds;
  const auto passes = precondition_passes();
  const auto spec = precondition_spec();
  // Said last, whatever runs: preconditioning comes before it all.
  const auto preconditioned =
      passes == 0 ? QString()
                  : tr(" Every target is preconditioned first: written whole %1%2.")
                        .arg(count_text(passes, "time"),
                             spec.empty() ? QString() : tr(" in the writes of '%1'").arg(QString::fromStdString(spec)));
  if (const auto matrix = pts_iops(); !matrix || *matrix) {
    if (rows->size() != 1) {
      preview_summary_->setText(tr("The PTS IOPS test runs the plan's one run over its matrix, and this plan makes %1: "
                                   "choose Normal and one access specification per worker.")
                                    .arg(count_text(rows->size(), "run")));
      return;
    }
    if (!matrix) {
      preview_summary_->setText(tr("The PTS IOPS test cannot start: %1").arg(pts_error_->text()));
      return;
    }
    const auto& cells = **matrix;
    const auto per_round = cells.block_bytes.size() * cells.read_percents.size();
    const auto rounds = steady_state()->max_rounds;
    const double round_seconds = static_cast<double>(per_round) * run_seconds;
    preview_summary_->setText(tr("PTS IOPS: %1 per round (%2 x %3), about %4 per round without preparing test files; "
                                 "until the IOPS of 4 KiB random writes are steady, at most %5 (about %6).%7")
                                  .arg(count_text(per_round, "cell"),
                                       cells.read_percents.size() == 1 ? tr("1 mix")
                                                                       : tr("%1 mixes").arg(cells.read_percents.size()),
                                       count_text(cells.block_bytes.size(), "block size"), duration_text(round_seconds),
                                       count_text(rounds, "round"), duration_text(round_seconds * rounds),
                                       preconditioned));
    return;
  }
  if (const auto bound = find_max_iops()) {
    if (rows->size() != 1) {
      preview_summary_->setText(tr("A search starts from one run, and this plan makes %1: choose Normal and one "
                                   "access specification per worker.")
                                    .arg(count_text(rows->size(), "run")));
      return;
    }
    preview_summary_->setText(tr("Searches from this run for the most IOPS with %1: its outstanding I/Os doubled, "
                                 "then its rate bisected, each step a run of about %2 without preparing test files.%3")
                                  .arg(bound_text(*bound), duration_text(seconds), preconditioned));
    return;
  }
  if (const auto rounds = steady_state()) {
    preview_summary_->setText(tr("%1 per round, about %2 without preparing test files; until steady, at most %3 "
                                 "(about %4).%5")
                                  .arg(count_text(rows->size(), "run"), duration_text(seconds),
                                       count_text(rounds->max_rounds, "round"),
                                       duration_text(seconds * rounds->max_rounds), preconditioned));
    return;
  }
  preview_summary_->setText(tr("%1, about %2 without preparing test files.%3")
                                .arg(count_text(rows->size(), "run"), duration_text(seconds), preconditioned));
}

}  // namespace iomark::gui
