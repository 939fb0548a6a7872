// The models' fleet-scale behaviour under QAbstractItemModelTester: the live
// figures tree changing figures in place with dataChanged per group of siblings, the
// topology changing rows of the same shape in place, the manager filter, and how far a tree
// opens.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTreeView>

#include "iomark/gui/live_figures_model.hpp"
#include "iomark/gui/manager_filter.hpp"
#include "iomark/gui/topology_model.hpp"

namespace iomark::gui {
namespace {

using Level = results::SummaryLevel;

FigureRow figures(Level level, std::string name, double iops) {
  FigureRow row;
  row.level = level;
  row.name = std::move(name);
  row.iops = iops;
  return row;
}

// ALL; alpha with two workers of one target each; beta with one worker of one target.
std::vector<FigureRow> two_managers() {
  return {figures(Level::all, "All managers", 600), figures(Level::manager, "alpha", 400),
          figures(Level::worker, "Worker 1", 200),  figures(Level::target, "/dev/sdb", 200),
          figures(Level::worker, "Worker 2", 200),  figures(Level::target, "/dev/sdc", 200),
          figures(Level::manager, "beta", 200),     figures(Level::worker, "Worker 1", 200),
          figures(Level::target, "/dev/sdb", 200)};
}

TEST(LiveFiguresModel, ShowsManagersWorkersAndTargetsAsATree) {
  LiveFiguresModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.set_rows(two_managers()), LiveFiguresModel::Change::rows);
  ASSERT_EQ(model.rowCount(), 3);  // All managers, alpha, beta
  EXPECT_EQ(model.manager_count(), 2U);
  const auto alpha = model.index(1, 0);
  EXPECT_EQ(alpha.data().toString(), "alpha");  // no indentation: the tree shows the level
  EXPECT_EQ(alpha.data(kManagerNameRole).toString(), "alpha");
  EXPECT_FALSE(model.index(0, 0).data(kManagerNameRole).isValid());  // ALL is no manager
  ASSERT_EQ(model.rowCount(alpha), 2);
  const auto second_worker = model.index(1, 0, alpha);
  EXPECT_FALSE(second_worker.data(kManagerNameRole).isValid());
  ASSERT_EQ(model.rowCount(second_worker), 1);
  const auto target = model.index(0, FiguresModel::iops_column, second_worker);
  EXPECT_EQ(target.data().toString(), "200");
  EXPECT_EQ(model.row_of(target), 5U);
  EXPECT_EQ(model.index_of(5).parent(), second_worker);
  EXPECT_EQ(model.rowCount(model.index(2, 0)), 1);  // beta's worker
}

TEST(LiveFiguresModel, ChangesFiguresInPlaceOneSignalPerGroupOfSiblings) {
  LiveFiguresModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_rows(two_managers());
  QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

  auto rows = two_managers();
  EXPECT_EQ(model.set_rows(rows), LiveFiguresModel::Change::none);
  EXPECT_EQ(changed.count(), 0);

  rows[8].iops = 250;  // beta's target only
  EXPECT_EQ(model.set_rows(rows), LiveFiguresModel::Change::figures);
  ASSERT_EQ(changed.count(), 1);
  const auto first = changed.front().at(0).value<QModelIndex>();
  const auto last = changed.front().at(1).value<QModelIndex>();
  EXPECT_EQ(model.row_of(first), 8U);
  EXPECT_EQ(first.column(), FiguresModel::iops_column);  // names do not change
  EXPECT_EQ(last.column(), FiguresModel::column_count - 1);
  EXPECT_EQ(model.index(0, FiguresModel::iops_column, model.index(0, 0, model.index(2, 0))).data().toString(), "250");

  changed.clear();
  for (auto& row : rows) row.iops += 1;  // every figure: ALL and managers, two worker groups, three target groups
  model.set_rows(rows);
  EXPECT_EQ(changed.count(), 6);
  EXPECT_EQ(resets.count(), 0);

  rows[6].name = "gamma";  // other rows: the model starts again
  EXPECT_EQ(model.set_rows(rows), LiveFiguresModel::Change::rows);
  EXPECT_EQ(resets.count(), 1);
  EXPECT_EQ(model.index(2, 0).data().toString(), "gamma");
  EXPECT_EQ(model.set_rows({}), LiveFiguresModel::Change::rows);
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(ManagerFilter, KeepsMatchingManagersWithEverythingUnderThemAndTheAllRow) {
  LiveFiguresModel model;
  model.set_rows(two_managers());
  ManagerFilter filter;
  filter.setSourceModel(&model);
  QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(filter.rowCount(), 3);
  filter.set_pattern(QStringLiteral(" BET "));  // case and blanks do not matter
  ASSERT_EQ(filter.rowCount(), 2);
  EXPECT_EQ(filter.index(0, 0).data().toString(), "All managers");
  const auto beta = filter.index(1, 0);
  EXPECT_EQ(beta.data().toString(), "beta");
  ASSERT_EQ(filter.rowCount(beta), 1);
  EXPECT_EQ(filter.rowCount(filter.index(0, 0, beta)), 1);
  filter.set_pattern(QStringLiteral("worker"));  // workers' names are not managers' names
  EXPECT_EQ(filter.rowCount(), 1);
  filter.set_pattern({});
  EXPECT_EQ(filter.rowCount(), 3);
}

std::vector<TopologyManagerRow> topology_rows(const std::string& state) {
  std::vector<TopologyManagerRow> rows;
  for (const char* name : {"alpha", "beta"}) {
    TopologyManagerRow row;
    row.name = name;
    row.state = state;
    row.workers = {{"Worker 1", "1 target, QD 4", "Database", std::nullopt},
                   {"Worker 2", "1 target, QD 4", "Database", std::nullopt}};
    rows.push_back(std::move(row));
  }
  return rows;
}

TEST(TopologyModel, ChangesRowsOfTheSameShapeInPlace) {
  TopologyModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.set_rows(topology_rows("connected")), TopologyModel::Change::rows);
  EXPECT_EQ(model.index(1, 0).data(kManagerNameRole).toString(), "beta");
  EXPECT_FALSE(model.index(0, 0, model.index(1, 0)).data(kManagerNameRole).isValid());
  QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

  auto running = topology_rows("running");
  running[1].workers[1].state = "1 target, QD 8";
  EXPECT_EQ(model.set_rows(running), TopologyModel::Change::values);
  EXPECT_EQ(resets.count(), 0);
  EXPECT_EQ(changed.count(), 3);  // both managers' state, beta's Worker 2
  EXPECT_EQ(model.index(0, TopologyModel::state_column).data().toString(), "running");
  EXPECT_EQ(model.set_rows(running), TopologyModel::Change::none);

  running[0].workers.pop_back();  // another shape
  EXPECT_EQ(model.set_rows(running), TopologyModel::Change::rows);
  EXPECT_EQ(resets.count(), 1);
  EXPECT_EQ(model.rowCount(model.index(0, 0)), 1);
}

TEST(ApplyExpansion, OpensEverythingUpToTheLimitAndOnlyManagersBeyondIt) {
  LiveFiguresModel model;
  model.set_rows(two_managers());
  QTreeView view;
  view.setModel(&model);
  const auto alpha = model.index(1, 0);
  const auto alpha_worker = model.index(0, 0, alpha);
  apply_expansion(view, model.manager_count(), 2);
  EXPECT_TRUE(view.isExpanded(alpha));
  EXPECT_TRUE(view.isExpanded(alpha_worker));  // its targets show
  apply_expansion(view, model.manager_count(), 1);
  EXPECT_FALSE(view.isExpanded(alpha));
  EXPECT_FALSE(view.isExpanded(alpha_worker));
}

}  // namespace
}  // namespace iomark::gui
