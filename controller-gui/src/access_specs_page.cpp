#include "iomark/gui/access_specs_page.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/ascii.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/spec_models.hpp"
#include "table_views.hpp"

namespace iomark::gui {

namespace {

using access_specs::AccessSpec;
using access_specs::DefaultAssignment;

QPushButton* button(const QString& text, const QString& tip) {
  auto* result = new QPushButton(text);
  result->setToolTip(tip);
  return result;
}

}  // namespace

SpecEditorDialog::SpecEditorDialog(const AccessSpec& spec, std::vector<std::string> taken, QWidget* parent)
    : QDialog(parent), spec_(spec), taken_(std::move(taken)) {
  setWindowTitle(tr("Edit Access Specification"));
  name_ = new QLineEdit(QString::fromStdString(spec.name));
  default_assignment_ = new QComboBox;
  default_assignment_->addItem(tr("None"), static_cast<int>(DefaultAssignment::none));
  default_assignment_->addItem(tr("All workers"), static_cast<int>(DefaultAssignment::all));
  default_assignment_->addItem(tr("Disk workers"), static_cast<int>(DefaultAssignment::disk));
  default_assignment_->addItem(tr("Network workers"), static_cast<int>(DefaultAssignment::network));
  default_assignment_->setCurrentIndex(default_assignment_->findData(static_cast<int>(spec.default_assignment)));
  default_assignment_->setToolTip(tr("Which newly created workers get this spec assigned"));

  lines_ = new SpecLinesModel(this);
  lines_->set_lines(spec.lines);
  view_ = new QTableView;
  view_->setModel(lines_);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 8);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  auto selected_line = [this]() -> std::optional<std::size_t> {
    const auto rows = view_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return std::nullopt;
    return static_cast<std::size_t>(rows.front().row());
  };
  auto* add = button(tr("Add line"), tr("A line with the default values"));
  auto* copy = button(tr("Copy line"), tr("A copy of the selected line"));
  auto* remove = button(tr("Delete line"), tr("Delete the selected line"));
  auto* up = button(tr("Up"), tr("Move the selected line up"));
  auto* down = button(tr("Down"), tr("Move the selected line down"));
  connect(add, &QPushButton::clicked, this, [this] { lines_->add_line(); });
  connect(copy, &QPushButton::clicked, this, [this, selected_line] {
    if (const auto line = selected_line()) lines_->add_line(*line);
  });
  connect(remove, &QPushButton::clicked, this, [this, selected_line] {
    if (const auto line = selected_line()) lines_->remove_line(*line);
  });
  auto move = [this, selected_line](int by) {
    const auto line = selected_line();
    if (!line) return;
    const auto to = static_cast<long long>(*line) + by;
    if (to < 0 || to >= lines_->rowCount()) return;
    lines_->move_line(*line, static_cast<std::size_t>(to));
    view_->selectRow(static_cast<int>(to));
  };
  connect(up, &QPushButton::clicked, this, [move] { move(-1); });
  connect(down, &QPushButton::clicked, this, [move] { move(1); });

  problem_ = new QLabel;
  problem_->setWordWrap(true);
  problem_->setStyleSheet(QStringLiteral("color: #b00020"));
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* form = new QFormLayout;
  form->addRow(tr("Name"), name_);
  form->addRow(tr("Default assignment"), default_assignment_);
  auto* line_buttons = new QHBoxLayout;
  for (auto* b : {add, copy, remove, up, down}) line_buttons->addWidget(b);
  line_buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(view_, 1);
  layout->addLayout(line_buttons);
  layout->addWidget(problem_);
  layout->addWidget(buttons_);
  resize(900, 420);

  connect(name_, &QLineEdit::textChanged, this, &SpecEditorDialog::check);
  connect(default_assignment_, &QComboBox::currentIndexChanged, this, &SpecEditorDialog::check);
  connect(lines_, &SpecLinesModel::edited, this, &SpecEditorDialog::check);
  check();
}

QString SpecEditorDialog::problem() const { return problem_->text(); }

void SpecEditorDialog::check() {
  QString problem;
  const auto lines = lines_->lines();
  const auto name = name_->text().toStdString();
  if (!lines) {
    problem = QString::fromStdString(lines.error().message());
  } else if (std::any_of(taken_.begin(), taken_.end(), [&](const std::string& other) { return ascii::iequals(other, name); })) {
    problem = tr("another specification is already named \"%1\"").arg(name_->text());
  } else if (ascii::iequals(name, access_specs::kIdleSpecName)) {
    problem = tr("\"Idle\" is reserved: a worker assigned Idle does no I/O");
  } else {
    AccessSpec spec{name, static_cast<DefaultAssignment>(default_assignment_->currentData().toInt()), *lines};
    if (auto valid = access_specs::validate(spec); !valid) {
      problem = QString::fromStdString(valid.error().message());
    } else {
      spec_ = std::move(spec);
    }
  }
  problem_->setText(problem);
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

AccessSpecsPage::AccessSpecsPage(PlanDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
  assigned_title_ = new QLabel;
  assigned_title_->setWordWrap(true);
  assigned_ = new QListWidget;
  assigned_->setToolTip(tr("Run in this order: run k uses every worker's k-th spec"));
  library_ = new SpecLibraryModel(this);
  library_view_ = new QTableView;
  library_view_->setModel(library_);
  make_compact(*library_view_, SpecLibraryModel::name_column);
  library_view_->setSelectionMode(QAbstractItemView::SingleSelection);

  assign_ = button(tr("<< Assign"), tr("Add the selected specification to the worker's list"));
  unassign_ = button(tr("Remove >>"), tr("Take the selected specification off the worker's list"));
  up_ = button(tr("Move up"), tr("Run the selected specification earlier"));
  down_ = button(tr("Move down"), tr("Run the selected specification later"));
  auto* create = button(tr("New..."), tr("A new specification in this plan"));
  edit_ = button(tr("Edit..."), tr("Edit the selected specification of this plan"));
  auto* copy = button(tr("Edit copy..."), tr("A new specification starting from the selected one"));
  delete_ = button(tr("Delete"), tr("Delete the selected specification of this plan and its assignments"));

  auto* assigned_box = new QGroupBox(tr("Assigned access specifications"));
  auto* assigned_layout = new QVBoxLayout(assigned_box);
  assigned_layout->addWidget(assigned_title_);
  assigned_layout->addWidget(assigned_, 1);
  auto* order = new QHBoxLayout;
  order->addWidget(up_);
  order->addWidget(down_);
  assigned_layout->addLayout(order);

  auto* middle = new QVBoxLayout;
  middle->addStretch(1);
  middle->addWidget(assign_);
  middle->addWidget(unassign_);
  middle->addStretch(1);

  auto* library_box = new QGroupBox(tr("Global access specifications"));
  auto* library_layout = new QVBoxLayout(library_box);
  library_layout->addWidget(library_view_, 1);
  auto* library_buttons = new QHBoxLayout;
  for (auto* b : {create, edit_, copy, delete_}) library_buttons->addWidget(b);
  library_buttons->addStretch(1);
  library_layout->addLayout(library_buttons);

  auto* layout = new QHBoxLayout(this);
  layout->addWidget(assigned_box, 1);
  layout->addLayout(middle);
  layout->addWidget(library_box, 2);

  connect(assign_, &QPushButton::clicked, this, [this] {
    if (const auto* spec = selected_library_spec()) assign(spec->name);
  });
  connect(library_view_, &QTableView::doubleClicked, this, [this] {
    if (const auto* spec = selected_library_spec()) assign(spec->name);
  });
  connect(unassign_, &QPushButton::clicked, this, &AccessSpecsPage::unassign);
  connect(up_, &QPushButton::clicked, this, [this] { move_assigned(-1); });
  connect(down_, &QPushButton::clicked, this, [this] { move_assigned(1); });
  connect(create, &QPushButton::clicked, this, &AccessSpecsPage::new_spec);
  connect(edit_, &QPushButton::clicked, this, &AccessSpecsPage::edit_spec);
  connect(copy, &QPushButton::clicked, this, &AccessSpecsPage::copy_spec);
  connect(delete_, &QPushButton::clicked, this, &AccessSpecsPage::delete_spec);
  connect(library_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    bool from_plan = false;
    const auto* spec = selected_library_spec(&from_plan);
    edit_->setEnabled(spec != nullptr && from_plan);
    delete_->setEnabled(spec != nullptr && from_plan);
  });
  connect(&document_, &PlanDocument::specs_changed, this, &AccessSpecsPage::refresh_library);
  connect(&document_, &PlanDocument::topology_changed, this, &AccessSpecsPage::refresh_assigned);
  connect(&document_, &PlanDocument::plan_replaced, this, [this] {
    refresh_library();
    show_worker(std::nullopt, std::nullopt);
  });
  refresh_library();
  refresh_assigned();
}

void AccessSpecsPage::show_worker(std::optional<std::size_t> manager, std::optional<std::size_t> worker) {
  manager_ = manager;
  worker_ = worker;
  refresh_assigned();
}

void AccessSpecsPage::refresh_library() {
  library_->set_specs(spec_library(document_.specs()));
  edit_->setEnabled(false);
  delete_->setEnabled(false);
}

void AccessSpecsPage::refresh_assigned() {
  const auto& managers = document_.managers();
  const bool shown = manager_ && worker_ && *manager_ < managers.size() && *worker_ < managers[*manager_].workers.size();
  const int current = assigned_->currentRow();
  assigned_->clear();
  for (auto* widget : std::initializer_list<QWidget*>{assigned_, assign_, unassign_, up_, down_}) widget->setEnabled(shown);
  if (!shown) {
    assigned_title_->setText(tr("Select a worker in the topology to assign specifications to it."));
    return;
  }
  const auto& worker = managers[*manager_].workers[*worker_];
  assigned_title_->setText(tr("<b>%1</b> on <b>%2</b>")
                               .arg(QString::fromStdString(worker.name).toHtmlEscaped(),
                                    QString::fromStdString(managers[*manager_].name).toHtmlEscaped()));
  for (const auto& name : worker.assigned_specs.value_or(std::vector<std::string>{})) {
    assigned_->addItem(QString::fromStdString(name));
  }
  assigned_->setCurrentRow(std::min(current, assigned_->count() - 1));
}

void AccessSpecsPage::assign(const std::string& name) {
  const auto& managers = document_.managers();
  if (!manager_ || !worker_ || *manager_ >= managers.size() || *worker_ >= managers[*manager_].workers.size()) return;
  auto worker = managers[*manager_].workers[*worker_];
  if (!worker.assigned_specs) worker.assigned_specs.emplace();
  worker.assigned_specs->push_back(name);
  document_.set_worker(*manager_, *worker_, std::move(worker));
  assigned_->setCurrentRow(assigned_->count() - 1);
}

void AccessSpecsPage::unassign() {
  const int row = assigned_->currentRow();
  if (row < 0 || !manager_ || !worker_) return;
  auto worker = document_.managers()[*manager_].workers[*worker_];
  auto& names = *worker.assigned_specs;
  names.erase(names.begin() + row);
  document_.set_worker(*manager_, *worker_, std::move(worker));
}

void AccessSpecsPage::move_assigned(int by) {
  const int row = assigned_->currentRow();
  if (row < 0 || !manager_ || !worker_) return;
  auto worker = document_.managers()[*manager_].workers[*worker_];
  auto& names = *worker.assigned_specs;
  const int to = row + by;
  if (to < 0 || to >= static_cast<int>(names.size())) return;
  std::swap(names[static_cast<std::size_t>(row)], names[static_cast<std::size_t>(to)]);
  document_.set_worker(*manager_, *worker_, std::move(worker));
  assigned_->setCurrentRow(to);
}

const AccessSpec* AccessSpecsPage::selected_library_spec(bool* from_plan) const {
  const auto rows = library_view_->selectionModel()->selectedRows();
  if (rows.isEmpty()) return nullptr;
  const auto* entry = library_->spec_at(rows.front());
  if (entry == nullptr) return nullptr;
  if (from_plan != nullptr) *from_plan = entry->origin == SpecOrigin::plan;
  return &entry->spec;
}

std::vector<std::string> AccessSpecsPage::spec_names_except(const std::string& name) const {
  std::vector<std::string> names;
  for (const auto& spec : document_.specs()) {
    if (!ascii::iequals(spec.name, name)) names.push_back(spec.name);
  }
  return names;
}

void AccessSpecsPage::new_spec() {
  AccessSpec spec;
  std::size_t number = document_.specs().size() + 1;
  auto taken = [&](const std::string& name) {
    return std::any_of(document_.specs().begin(), document_.specs().end(),
                       [&](const AccessSpec& s) { return ascii::iequals(s.name, name); });
  };
  while (taken("Untitled " + std::to_string(number))) ++number;
  spec.name = "Untitled " + std::to_string(number);
  spec.lines.push_back(access_specs::AccessSpecLine{});
  edit(spec, std::nullopt);
}

void AccessSpecsPage::edit_spec() {
  bool from_plan = false;
  const auto* spec = selected_library_spec(&from_plan);
  if (spec != nullptr && from_plan) edit(*spec, spec->name);
}

void AccessSpecsPage::copy_spec() {
  const auto* spec = selected_library_spec();
  if (spec == nullptr) return;
  auto copy = *spec;
  copy.name = spec->name + " (copy)";
  edit(copy, std::nullopt);
}

void AccessSpecsPage::delete_spec() {
  bool from_plan = false;
  const auto* spec = selected_library_spec(&from_plan);
  if (spec != nullptr && from_plan) document_.remove_spec(std::string(spec->name));
}

void AccessSpecsPage::edit(const AccessSpec& spec, std::optional<std::string> replaces) {
  SpecEditorDialog dialog(spec, spec_names_except(replaces.value_or(std::string())), this);
  if (dialog.exec() != QDialog::Accepted) return;
  document_.put_spec(dialog.spec(), std::move(replaces));
}

}  // namespace iomark::gui
