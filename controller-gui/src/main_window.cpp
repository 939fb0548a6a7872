#include "iomark/gui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QSysInfo>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "iomark/controller/embedded_paths.hpp"
#include "iomark/controller/plan_series.hpp"
#include "iomark/gui/access_specs_page.hpp"
#include "iomark/gui/disk_targets_page.hpp"
#include "iomark/gui/network_targets_model.hpp"
#include "iomark/gui/network_targets_page.hpp"
#include "iomark/gui/manager_filter.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/result_charts.hpp"
#include "iomark/gui/results_page.hpp"
#include "iomark/gui/session.hpp"
#include "iomark/gui/test_setup_page.hpp"
#include "iomark/gui/wording.hpp"
#include "iomark/icf/warning_groups.hpp"
#include "table_views.hpp"

namespace iomark::gui {

namespace {

controller::RegistryOptions registry_options(const MainWindowOptions& options) {
  controller::RegistryOptions registry;
  registry.key = options.key;
  registry.tls = options.tls;
  registry.controller_name = QSysInfo::machineHostName().toStdString();
  if (registry.controller_name.empty()) registry.controller_name = "iomark-gui";
  registry.build = "iomark-gui " IOMARK_VERSION;
  return registry;
}

}  // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent) : QMainWindow(parent) {
  document_ = new PlanDocument(this);
  session_ = new Session(registry_options(options), this);
  log_ = new LogModel(5000, this);
  topology_ = new TopologyModel(this);

  topology_filter_ = new ManagerFilter(this);
  topology_filter_->setSourceModel(topology_);
  topology_filter_box_ = make_manager_filter_box(*topology_filter_);
  topology_view_ = new QTreeView;
  topology_view_->setModel(topology_filter_);
  topology_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  topology_view_->setSelectionMode(QAbstractItemView::SingleSelection);
  topology_view_->setUniformRowHeights(true);
  topology_view_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  topology_view_->setMinimumWidth(320);

  targets_page_ = new DiskTargetsPage(*document_);
  network_page_ = new NetworkTargetsPage(*document_);
  specs_page_ = new AccessSpecsPage(*document_);
  results_page_ = new ResultsPage;
  setup_page_ = new TestSetupPage(*document_);
  tabs_ = new QTabWidget;
  tabs_->addTab(targets_page_, tr("Disk &Targets"));
  tabs_->addTab(network_page_, tr("&Network Targets"));
  tabs_->addTab(specs_page_, tr("&Access Specifications"));
  tabs_->addTab(results_page_, tr("Results &Display"));
  tabs_->addTab(setup_page_, tr("Test &Setup"));

  auto* topology_pane = new QWidget;
  auto* topology_layout = new QVBoxLayout(topology_pane);
  topology_layout->setContentsMargins(0, 0, 0, 0);
  topology_layout->addWidget(topology_filter_box_);
  topology_layout->addWidget(topology_view_);
  auto* splitter = new QSplitter;
  splitter->addWidget(topology_pane);
  splitter->addWidget(tabs_);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({460, 940});
  setCentralWidget(splitter);

  log_view_ = new QTableView;
  log_view_->setModel(log_);
  make_compact(*log_view_, LogModel::text_column);
  log_dock_ = new QDockWidget(tr("Log"));
  log_dock_->setObjectName(QStringLiteral("log"));
  log_dock_->setWidget(log_view_);
  addDockWidget(Qt::BottomDockWidgetArea, log_dock_);
  resizeDocks({log_dock_}, {150}, Qt::Vertical);

  run_status_ = new QLabel(tr("Ready"));
  managers_status_ = new QLabel;
  statusBar()->addWidget(run_status_, 1);
  statusBar()->addPermanentWidget(managers_status_);

  build_actions();
  build_menus_and_toolbar();
  add_result_charts(*this);

  connect(log_, &LogModel::rowsInserted, log_view_, [this] { log_view_->scrollToBottom(); });
  connect(log_, &LogModel::added, this, [this](Severity severity, const QString& text) {
    if (severity != Severity::info) statusBar()->showMessage(text, 8000);
  });
  connect(session_, &Session::message, this, &MainWindow::report);
  connect(session_, &Session::managers_changed, this, [this] {
    adopt_new_managers();
    refresh_topology();
  });
  connect(session_, &Session::listening_changed, this, &MainWindow::update_actions);
  connect(session_, &Session::dynamo_changed, this, &MainWindow::refresh_topology);  // status bar and menu
  connect(session_, &Session::request_done, this, [this](bool ok) {
    if (!std::exchange(start_when_ready_, false)) return;
    if (ok) start();
  });
  connect(session_, &Session::series_started, this, [this](std::size_t runs) {
    results_page_->begin_series();
    run_status_->setText(tr("Starting %1...").arg(count_text(runs, "run")));
    refresh_topology();
    update_actions();
  });
  connect(session_, &Session::run_started, this, [this](std::size_t index, std::size_t count, const QString& label) {
    report(Severity::info, tr("run %1/%2: %3").arg(index + 1).arg(count).arg(label));
  });
  connect(session_, &Session::live, this, [this](const LiveUpdate& update) {
    results_page_->show_live(update);
    run_status_->setText(tr("Run %1/%2 %3, ETA %4")
                             .arg(update.run_index + 1)
                             .arg(update.run_count)
                             .arg(QString::fromStdString(update.label))
                             .arg(duration_text(update.remaining_s)));
  });
  connect(session_, &Session::run_finished, this,
          [this](std::size_t index, const results::RunResults& run, const results::RunSummary& summary) {
            results_page_->add_run(index, run, summary);
          });
  connect(session_, &Session::series_finished, this,
          [this](results::SeriesOutcome outcome, const QString& error, bool stopped_by_user) {
            const auto runs = session_->last_results().runs.size();
            if (outcome == results::SeriesOutcome::completed) {
              report(Severity::info, tr("series completed: %1").arg(count_text(runs, "run")));
              run_status_->setText(tr("Series completed: %1").arg(count_text(runs, "run")));
            } else {
              report(stopped_by_user ? Severity::warning : Severity::error,
                     tr("series stopped after %1: %2").arg(count_text(runs, "run"), error));
              run_status_->setText(tr("Series stopped after %1").arg(count_text(runs, "run")));
            }
            results_page_->end_series(run_status_->text());
            refresh_topology();
            update_actions();
          });
  connect(document_, &PlanDocument::topology_changed, this, &MainWindow::refresh_topology);
  connect(document_, &PlanDocument::plan_replaced, this, [this] {
    last_selection_.reset();
    adopt_new_managers();
    refresh_topology();
    // The page shows the plan's interval; "never" (0) and no section show the page's first.
    const auto& display = document_->plan().display;
    results_page_->set_update_interval_s(display ? static_cast<int>(display->update_frequency_s) : 0);
  });
  connect(results_page_, &ResultsPage::update_interval_changed, document_,
          [this](int seconds) { document_->set_update_frequency_s(static_cast<std::uint32_t>(seconds)); });
  connect(document_, &PlanDocument::modified_changed, this, &MainWindow::update_title);
  connect(topology_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &MainWindow::selection_changed);
  // After the filter's own slot: the row selected before stays selected when it shows.
  connect(topology_filter_box_, &QLineEdit::textChanged, this, [this] {
    if (last_selection_) select(*last_selection_);
  });
  connect(results_page_, &ResultsPage::expand_limit_changed, this, [this](int managers) {
    apply_expansion(*topology_view_, topology_->rows().size(), managers);
    if (last_selection_) select(*last_selection_);
  });

  authenticated_ = options.key.has_value() || options.insecure;
  if (!options.listen.isEmpty()) {
    if (options.key || options.insecure) {
      session_->listen(options.listen);
    } else {
      report(Severity::warning, tr("not listening for agents: no key (give --key-file or IOMARK_KEY, or --insecure); "
                                   "the local agent needs none"));
    }
  }
  if (options.legacy_dynamo) accept_legacy_dynamo(*options.legacy_dynamo);
  refresh_topology();
  update_title();
  update_actions();
  resize(1400, 860);
}

MainWindow::~MainWindow() = default;

void MainWindow::build_actions() {
  auto* style = QApplication::style();
  auto make = [this](QAction*& action, const QString& text, const QKeySequence& shortcut, const QString& tip,
                     const QIcon& icon = {}) {
    action = new QAction(icon, text, this);
    action->setShortcut(shortcut);
    action->setToolTip(tip + (shortcut.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(shortcut.toString())));
    action->setStatusTip(tip);
  };
  make(new_, tr("&New"), QKeySequence::New, tr("An empty plan"), style->standardIcon(QStyle::SP_FileIcon));
  make(open_, tr("&Open..."), QKeySequence::Open, tr("Open an IOmeter .icf plan"),
       style->standardIcon(QStyle::SP_DialogOpenButton));
  make(save_, tr("&Save"), QKeySequence::Save, tr("Save the plan as an IOmeter 1.1.0 .icf"),
       style->standardIcon(QStyle::SP_DialogSaveButton));
  make(save_as_, tr("Save &As..."), QKeySequence::SaveAs, tr("Save the plan under another name"));
  make(save_results_, tr("Save &Results As..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
       tr("Save the results of the last series (.csv as IOmeter, or .json)"));
  make(quit_, tr("&Quit"), QKeySequence::Quit, tr("Quit iomark"));
  make(start_, tr("S&tart"), QKeySequence(Qt::Key_F5), tr("Start the series (the green flag)"),
       style->standardIcon(QStyle::SP_MediaPlay));
  make(stop_, tr("St&op"), QKeySequence(Qt::SHIFT | Qt::Key_F5), tr("Stop the series now"),
       style->standardIcon(QStyle::SP_MediaStop));
  make(local_agent_, tr("Start &Local Agent"), QKeySequence(Qt::CTRL | Qt::Key_L),
       tr("Run an agent inside iomark-gui on this computer"), style->standardIcon(QStyle::SP_ComputerIcon));
  make(connect_, tr("&Connect to Agent..."), QKeySequence(Qt::CTRL | Qt::Key_K),
       tr("Dial an agent started with --listen"), style->standardIcon(QStyle::SP_DriveNetIcon));
  make(listen_, tr("&Listen for Agents..."), {}, tr("Accept agents logging in (iomark-agent -i THIS-HOST)"));
  make(legacy_dynamo_, tr("Accept Legacy &Dynamo 1.1.0 Logins..."), {},
       tr("Let IOmeter's Dynamo 1.1.0 log in (dynamo -i THIS-HOST -p PORT) on the agents' port or a port of its "
          "own; the legacy protocol has no authentication"));
  legacy_dynamo_->setCheckable(true);
  make(disconnect_, tr("&Disconnect Manager"), {}, tr("Close the connection to the selected manager"),
       style->standardIcon(QStyle::SP_DialogCloseButton));
  make(add_worker_, tr("Add &Worker"), QKeySequence(Qt::CTRL | Qt::Key_Insert),
       tr("Add a disk worker to the selected manager"), style->standardIcon(QStyle::SP_FileDialogNewFolder));
  make(add_network_worker_, tr("Add N&etwork Worker"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Insert),
       tr("Add a network (TCP) worker to the selected manager; pair it on the Network Targets tab"),
       style->standardIcon(QStyle::SP_DriveNetIcon));
  make(remove_, tr("&Remove from Plan"), QKeySequence(Qt::CTRL | Qt::Key_Delete),
       tr("Remove the selected worker, or a manager that is not connected, from the plan"),
       style->standardIcon(QStyle::SP_TrashIcon));

  connect(new_, &QAction::triggered, this, [this] {
    if (maybe_save()) document_->clear();
  });
  connect(open_, &QAction::triggered, this, [this] {
    if (!maybe_save()) return;
    const auto path = QFileDialog::getOpenFileName(this, tr("Open a plan"), QFileInfo(document_->file_path()).path(),
                                                   tr("IOmeter configuration (*.icf);;All files (*)"));
    if (!path.isEmpty()) open_plan(path);
  });
  connect(save_, &QAction::triggered, this, [this] {
    if (document_->file_path().isEmpty()) {
      save_as_->trigger();
    } else {
      save_plan(document_->file_path());
    }
  });
  connect(save_as_, &QAction::triggered, this, [this] {
    const auto path = QFileDialog::getSaveFileName(this, tr("Save the plan"), document_->file_path(),
                                                   tr("IOmeter configuration (*.icf)"));
    if (!path.isEmpty()) save_plan(path.endsWith(QStringLiteral(".icf")) ? path : path + QStringLiteral(".icf"));
  });
  connect(save_results_, &QAction::triggered, this, [this] {
    const auto path = QFileDialog::getSaveFileName(this, tr("Save the results"), QStringLiteral("results.csv"),
                                                   tr("IOmeter results (*.csv);;iomark JSON results (*.json)"));
    if (!path.isEmpty()) save_results(path);
  });
  connect(quit_, &QAction::triggered, this, &QWidget::close);
  connect(start_, &QAction::triggered, this, &MainWindow::start);
  connect(stop_, &QAction::triggered, this, &MainWindow::stop);
  connect(local_agent_, &QAction::triggered, this, &MainWindow::start_local_agent);
  connect(connect_, &QAction::triggered, this, [this] {
    bool ok = false;
    const auto address = QInputDialog::getText(this, tr("Connect to an agent"),
                                               tr("HOST[:PORT] of an agent started with --listen (port 1066 if none)"),
                                               QLineEdit::Normal, {}, &ok);
    if (ok && !address.trimmed().isEmpty()) connect_agent(address.trimmed());
  });
  connect(listen_, &QAction::triggered, this, [this] {
    if (!session_->listening().isEmpty()) {
      session_->stop_listening();
      report(Severity::info, tr("stopped listening for agents"));
      return;
    }
    bool ok = false;
    const auto address = QInputDialog::getText(this, tr("Listen for agents"), tr("[ADDRESS:]PORT agents log in to"),
                                               QLineEdit::Normal, QStringLiteral("1066"), &ok);
    if (ok && !address.trimmed().isEmpty()) session_->listen(address.trimmed());
  });
  connect(legacy_dynamo_, &QAction::triggered, this, [this](bool checked) {
    if (!checked) {
      stop_legacy_dynamo();
      return;
    }
    bool ok = false;
    const auto address = QInputDialog::getText(
        this, tr("Accept Dynamo 1.1.0 logins"),
        tr("[ADDRESS:]PORT Dynamo logs in to (dynamo -i THIS-HOST -p PORT); empty: the agents' port"),
        QLineEdit::Normal, legacy_dynamo_address_, &ok);
    if (ok) {
      accept_legacy_dynamo(address.trimmed());
    } else {
      update_actions();  // cancelled: untick
    }
  });
  connect(disconnect_, &QAction::triggered, this, &MainWindow::disconnect_selected);
  connect(add_worker_, &QAction::triggered, this, &MainWindow::add_worker);
  connect(add_network_worker_, &QAction::triggered, this, &MainWindow::add_network_worker);
  connect(remove_, &QAction::triggered, this, &MainWindow::remove_selected);
}

void MainWindow::build_menus_and_toolbar() {
  auto* file = menuBar()->addMenu(tr("&File"));
  file->addActions({new_, open_, save_, save_as_});
  file->addSeparator();
  file->addAction(save_results_);
  file->addSeparator();
  file->addAction(quit_);
  auto* run = menuBar()->addMenu(tr("&Run"));
  run->addActions({start_, stop_});
  auto* managers = menuBar()->addMenu(tr("&Managers"));
  managers->addActions({local_agent_, connect_, listen_, legacy_dynamo_, disconnect_});
  managers->addSeparator();
  managers->addActions({add_worker_, add_network_worker_, remove_});
  auto* view = menuBar()->addMenu(tr("&View"));
  auto* log_toggle = log_dock_->toggleViewAction();
  log_toggle->setShortcut(QKeySequence(Qt::Key_F9));
  view->addAction(log_toggle);

  auto* toolbar = addToolBar(tr("Main"));
  toolbar->setObjectName(QStringLiteral("main"));
  toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toolbar->addActions({open_, save_});
  toolbar->addSeparator();
  toolbar->addActions({start_, stop_});
  toolbar->addSeparator();
  toolbar->addActions({local_agent_, connect_, disconnect_});
  toolbar->addSeparator();
  toolbar->addActions({add_worker_, add_network_worker_, remove_});
  topology_view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  topology_view_->addActions({add_worker_, add_network_worker_, remove_, disconnect_});
}

bool MainWindow::open_plan(const QString& path) {
  auto warnings = document_->open(path);
  if (!warnings) {
    report(Severity::error, QString::fromStdString(warnings.error().describe()));
    return false;
  }
  for (const auto& group : icf::group_warnings(*warnings)) {
    report(Severity::warning, QStringLiteral("%1:%2: %3")
                                  .arg(QFileInfo(path).fileName())
                                  .arg(group.first.line)
                                  .arg(QString::fromStdString(icf::describe(group))));
  }
  report(Severity::info, tr("opened %1").arg(path));
  if (auto valid = access_specs::validate(document_->plan()); !valid) {
    report(Severity::warning, tr("the plan needs fixing before it runs: %1").arg(QString::fromStdString(valid.error().describe())));
  }
  return true;
}

bool MainWindow::save_plan(const QString& path) {
  if (auto saved = document_->save(path); !saved) {
    report(Severity::error, QString::fromStdString(saved.error().describe()));
    return false;
  }
  report(Severity::info, tr("saved the plan to %1").arg(path));
  return true;
}

bool MainWindow::save_results(const QString& path) {
  if (session_->last_results().runs.empty()) {
    report(Severity::warning, tr("no results yet: run a series first"));
    return false;
  }
  if (auto written = write_results_file(session_->last_results(), path.toStdString()); !written) {
    report(Severity::error, QString::fromStdString(written.error().describe()));
    return false;
  }
  report(Severity::info,
         tr("saved the results of %1 to %2").arg(count_text(session_->last_results().runs.size(), "run"), path));
  return true;
}

void MainWindow::start() {
  if (session_->series_running() || start_when_ready_) return;
  const auto setup = document_->setup();
  if (setup.run_time_s == 0) {
    report(Severity::error, tr("the plan's run time is 0 (until stopped): set a run time on Test Setup"));
    tabs_->setCurrentWidget(setup_page_);
    return;
  }
  const auto pts_iops = setup_page_->pts_iops();
  if (!pts_iops) {
    report(Severity::error, tr("cannot start: %1 (Test Setup's PTS IOPS test)").arg(QString::fromStdString(pts_iops.error().describe())));
    tabs_->setCurrentWidget(setup_page_);
    return;
  }
  if (session_->managers().empty()) {
    // The default when nothing else is there: the embedded agent.
    report(Severity::info, tr("no manager connected: starting the local agent"));
    start_when_ready_ = true;
    start_local_agent();
    return;
  }
  if (auto missing = embedded_paths_missing(); !missing.empty()) {
    report(Severity::info, tr("restarting the local agent so that it may use %1").arg(QString::fromStdString(missing.back())));
    start_when_ready_ = true;
    session_->start_embedded_agent(std::move(missing));
    return;
  }
  controller::PlanSeriesOptions options;
  options.manager_map = manager_map(document_->managers(), session_->managers());
  options.request = {.engine = run_settings_.engine,
                     .buffered = run_settings_.buffered,
                     .test_file_bytes = targets_page_->test_file_bytes(),
                     .steady_state = setup_page_->steady_state(),
                     .find_max_iops = setup_page_->find_max_iops(),
                     .precondition_passes = setup_page_->precondition_passes(),
                     .precondition_spec = setup_page_->precondition_spec(),
                     .pts_iops = *pts_iops};
  auto planned = controller::plan_series(document_->plan(), session_->links(), options);
  if (!planned) {
    report(Severity::error, tr("cannot start: %1").arg(QString::fromStdString(planned.error().describe())));
    return;
  }
  for (const auto& note : planned->notes) report(Severity::info, QString::fromStdString(note));
  if (planned->series.runs.empty()) {
    report(Severity::error, tr("nothing to run: tick a target (Disk Targets) and assign an access specification "
                               "(Access Specifications) for at least one worker"));
    return;
  }
  if (auto started = session_->start_series(std::move(planned->series), setup_page_->results_file().toStdString(),
                                            {setup_page_->history_database().toStdString(),
                                             setup_page_->metrics_listen().toStdString(), run_settings_.results_json});
      !started) {
    report(Severity::error, QString::fromStdString(started.error().describe()));
    return;
  }
  tabs_->setCurrentWidget(results_page_);
}

void MainWindow::apply(const RunSettings& settings) {
  run_settings_ = settings;
  auto setup = document_->setup();
  if (settings.run_time_s) setup.run_time_s = *settings.run_time_s;
  if (settings.ramp_up_s) setup.ramp_up_s = *settings.ramp_up_s;
  if (settings.description) setup.description = *settings.description;
  if (setup != document_->setup()) document_->set_setup(setup);
  if (settings.results_csv) setup_page_->set_results_file(QString::fromStdString(*settings.results_csv));
  if (settings.test_file_bytes) targets_page_->set_test_file_bytes(*settings.test_file_bytes);
  if (settings.precondition_passes) setup_page_->set_precondition_passes(*settings.precondition_passes);
  if (settings.precondition_spec) setup_page_->set_precondition_spec(*settings.precondition_spec);
  if (settings.pts_iops) {
    setup_page_->set_pts_iops(settings.pts_iops, settings.steady_state.value_or(access_specs::SteadyStateRequest{}).max_rounds);
  } else if (settings.steady_state) {
    setup_page_->set_steady_state(settings.steady_state);
  }
  if (settings.find_max_iops) setup_page_->set_find_max_iops(settings.find_max_iops);
  // Neither has a page of its own: the log says they hold.
  if (!settings.engine.empty() || settings.buffered) {
    report(Severity::info, tr("every series runs with engine %1%2 (command line)")
                               .arg(settings.engine.empty() ? QStringLiteral("auto") : QString::fromStdString(settings.engine),
                                    settings.buffered ? tr(", buffered where O_DIRECT is refused") : QString()));
  }
  if (!settings.results_json.empty()) {
    report(Severity::info, tr("every series writes its JSON results to %1 (command line)")
                               .arg(QString::fromStdString(settings.results_json)));
  }
}

void MainWindow::stop() {
  start_when_ready_ = false;
  if (!session_->series_running()) return;
  report(Severity::info, tr("stopping the series..."));
  session_->stop_series();
}

void MainWindow::start_local_agent() {
  std::vector<std::string> paths;
  for (const auto& manager : document_->managers()) {
    for (auto& path : controller::embedded_agent_paths(manager)) paths.push_back(std::move(path));
  }
  session_->start_embedded_agent(std::move(paths));
}

void MainWindow::connect_agent(const QString& address) {
  if (!authenticated_) {
    report(Severity::warning, tr("no key (--key-file or IOMARK_KEY): connecting without authentication, which "
                                 "only an agent started with --insecure accepts"));
  }
  session_->dial(address);
}

std::vector<std::string> MainWindow::embedded_paths_missing() const {
  const auto& live = session_->managers();
  const auto paired = pair_managers(document_->managers(), live);
  for (std::size_t p = 0; p < paired.size(); ++p) {
    if (!paired[p] || !live[*paired[p]].embedded()) continue;
    const auto& granted = live[*paired[p]].inventory.allowed_paths;
    auto wanted = controller::embedded_agent_paths(document_->managers()[p]);
    const bool missing = std::any_of(wanted.begin(), wanted.end(), [&](const std::string& path) {
      return !controller::embedded_agent_grants(granted,
                                                QFileInfo(QString::fromStdString(path)).canonicalFilePath().toStdString());
    });
    if (!missing) return {};
    wanted.insert(wanted.begin(), granted.begin(), granted.end());
    return wanted;
  }
  return {};
}

std::optional<std::size_t> MainWindow::selected_plan_manager() {
  const auto where = selected();
  if (!where) {
    report(Severity::warning, tr("select a manager in the topology to add a worker to it"));
    return std::nullopt;
  }
  const auto& row = topology_->rows()[where->manager];
  return row.plan_index ? *row.plan_index : document_->ensure_manager(row.name);
}

void MainWindow::add_worker() {
  const auto where = selected();
  const bool joins_plan = where && !topology_->rows()[where->manager].plan_index;
  const auto manager = selected_plan_manager();
  if (!manager) return;
  // A manager that joins the plan brings its one disk worker: that is the one added.
  const auto worker = joins_plan ? document_->managers()[*manager].workers.size() - 1 : document_->add_worker(*manager);
  // The plan's managers come first in the topology, in plan order.
  select({*manager, worker});
}

void MainWindow::add_network_worker() {
  const auto manager = selected_plan_manager();
  if (!manager) return;
  const auto worker = document_->add_worker(*manager, access_specs::WorkerType::network_tcp);
  select({*manager, worker});
  tabs_->setCurrentWidget(network_page_);
}

std::optional<PlanWorkerIndex> MainWindow::plan_worker(const TopologyModel::Position& position) const {
  if (position.manager >= topology_->rows().size() || !position.worker) return std::nullopt;
  const auto& row = topology_->rows()[position.manager];
  if (*position.worker >= row.workers.size()) return std::nullopt;
  if (const auto& client = row.workers[*position.worker].client_of) return client;
  if (!row.plan_index) return std::nullopt;
  return PlanWorkerIndex{*row.plan_index, *position.worker};
}

void MainWindow::remove_selected() {
  const auto where = selected();
  if (!where) return;
  const auto& row = topology_->rows()[where->manager];
  if (where->worker && *where->worker < row.workers.size() && row.workers[*where->worker].client_of) {
    // A client goes with its pair: the server is left without a partner, as unticking does.
    const auto server = *row.workers[*where->worker].client_of;
    document_->set_worker(server.manager, server.worker,
                          with_partner(document_->managers()[server.manager].workers[server.worker], nullptr));
    return;
  }
  if (!row.plan_index) return;
  if (where->worker) {
    document_->remove_worker(*row.plan_index, *where->worker);
  } else if (!row.connected) {
    document_->remove_manager(*row.plan_index);
  } else {
    report(Severity::warning, tr("'%1' is connected: remove its workers, or disconnect it first")
                                  .arg(QString::fromStdString(row.name)));
  }
}

void MainWindow::disconnect_selected() {
  const auto where = selected();
  if (!where) return;
  const auto& row = topology_->rows()[where->manager];
  if (row.live_index) session_->disconnect_manager(*row.live_index);
}

void MainWindow::add_chart(QWidget* chart, const QString& title) {
  if (charts_ == nullptr) {
    charts_ = new QTabWidget;
    tabs_->insertTab(tabs_->indexOf(results_page_) + 1, charts_, tr("C&harts"));
  }
  charts_->addTab(chart, title);
}

void MainWindow::show_chart(QWidget* chart) {
  if (charts_ == nullptr || charts_->indexOf(chart) < 0) return;
  charts_->setCurrentWidget(chart);
  tabs_->setCurrentWidget(charts_);
}

void MainWindow::select(const TopologyModel::Position& position) {
  const auto index = topology_filter_->mapFromSource(topology_->index_of(position));
  if (!index.isValid()) return;
  topology_view_->expand(index.parent().isValid() ? index.parent() : index);
  topology_view_->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  topology_view_->setCurrentIndex(index);
}

void MainWindow::set_manager_filter(const QString& text) { topology_filter_box_->setText(text); }

std::optional<TopologyModel::Position> MainWindow::selected() const {
  const auto rows = topology_view_->selectionModel()->selectedRows();
  if (rows.isEmpty()) return std::nullopt;
  return topology_->position(topology_filter_->mapToSource(rows.front()));
}

void MainWindow::refresh_topology() {
  const auto keep = last_selection_;
  network_page_->set_live_managers(session_->managers());
  const auto change =
      topology_->set_rows(build_topology(document_->managers(), session_->managers(), session_->series_running()));
  if (change == TopologyModel::Change::rows) {
    apply_expansion(*topology_view_, topology_->rows().size(), results_page_->expand_limit());
  }
  if (keep) {
    select(*keep);
  } else if (!topology_->rows().empty()) {
    // Something to edit from the start: the first worker (or manager).
    select({0, topology_->rows().front().workers.empty() ? std::nullopt : std::optional<std::size_t>(0)});
  }
  selection_changed();
  const auto count = session_->managers().size();
  auto text = tr("%1 connected").arg(count_text(count, "manager"));
  if (!session_->listening().isEmpty()) text += tr(", listening on %1").arg(session_->listening());
  if (!session_->accepting_dynamo().isEmpty()) text += tr(", Dynamo logins on %1").arg(session_->accepting_dynamo());
  managers_status_->setText(text);
  update_actions();
}

void MainWindow::selection_changed() {
  const auto where = selected();
  if (where) last_selection_ = where;
  std::optional<std::size_t> manager;
  std::optional<std::size_t> worker;
  std::optional<LiveManager> live;
  if (where && where->manager < topology_->rows().size()) {
    const auto& row = topology_->rows()[where->manager];
    manager = row.plan_index;
    if (row.live_index) live = session_->managers()[*row.live_index];
    // A client row shows its server, where the pair is edited, with the server's manager.
    if (const auto plan = plan_worker(*where); plan && plan->manager != manager) {
      const auto paired = pair_managers(document_->managers(), session_->managers())[plan->manager];
      live = paired ? std::optional<LiveManager>(session_->managers()[*paired]) : std::nullopt;
      manager = plan->manager;
      worker = plan->worker;
    } else if (plan) {
      worker = plan->worker;
    }
    if (manager && !worker && !document_->managers()[*manager].workers.empty()) worker = 0;
  }
  targets_page_->show_worker(manager, worker, live);
  network_page_->show_worker(manager, worker);
  specs_page_->show_worker(manager, worker);
  update_actions();
}

void MainWindow::adopt_new_managers() {
  // A manager that logs in and that no plan manager runs on joins the plan with one worker,
  // as IOmeter gives each new manager its default workers.
  const auto paired = pair_managers(document_->managers(), session_->managers());
  const auto& live = session_->managers();
  for (std::size_t l = 0; l < live.size(); ++l) {
    if (live[l].open && std::find(paired.begin(), paired.end(), std::optional<std::size_t>(l)) == paired.end()) {
      document_->ensure_manager(live[l].name);
    }
  }
}

void MainWindow::update_title() {
  const auto name = document_->file_path().isEmpty() ? tr("Untitled") : QFileInfo(document_->file_path()).fileName();
  setWindowTitle(tr("%1%2 - iomark").arg(name, document_->modified() ? QStringLiteral("*") : QString()));
}

void MainWindow::update_actions() {
  const bool running = session_->series_running();
  const auto where = selected();
  const TopologyManagerRow* row =
      where && where->manager < topology_->rows().size() ? &topology_->rows()[where->manager] : nullptr;
  start_->setEnabled(!running);
  stop_->setEnabled(running);
  new_->setEnabled(!running);
  open_->setEnabled(!running);
  local_agent_->setEnabled(!running);
  disconnect_->setEnabled(!running && row != nullptr && row->live_index.has_value());
  add_worker_->setEnabled(!running && row != nullptr);
  add_network_worker_->setEnabled(!running && row != nullptr);
  remove_->setEnabled(!running && row != nullptr && row->plan_index.has_value() && (where->worker || !row->connected));
  save_results_->setEnabled(!session_->last_results().runs.empty());
  listen_->setText(session_->listening().isEmpty() ? tr("&Listen for Agents...") : tr("Stop &Listening"));
  const auto& dynamo = session_->accepting_dynamo();
  legacy_dynamo_->setChecked(!dynamo.isEmpty());
  legacy_dynamo_->setText(dynamo.isEmpty() ? tr("Accept Legacy &Dynamo 1.1.0 Logins...")
                                           : tr("Accept Legacy &Dynamo 1.1.0 Logins (on %1)").arg(dynamo));
}

void MainWindow::stop_legacy_dynamo() { session_->stop_accepting_dynamo(); }

void MainWindow::accept_legacy_dynamo(const QString& address) {
  legacy_dynamo_address_ = address;
  if (session_->accept_dynamo(address) && !warned_legacy_dynamo_) {
    warned_legacy_dynamo_ = true;
    report(Severity::warning, tr("the legacy IOmeter protocol has no authentication: anyone who reaches %1 can "
                                 "register a manager and be sent the plan's targets")
                                  .arg(session_->accepting_dynamo()));
  }
}

void MainWindow::report(Severity severity, const QString& text) { log_->add(severity, text); }

bool MainWindow::maybe_save() {
  if (!document_->modified()) return true;
  const auto answer = QMessageBox::question(this, tr("iomark"), tr("The plan has changed. Save it first?"),
                                            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Discard) return true;
  save_->trigger();
  return !document_->modified();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybe_save()) {
    event->ignore();
    return;
  }
  session_->stop_series();
  event->accept();
}

}  // namespace iomark::gui
