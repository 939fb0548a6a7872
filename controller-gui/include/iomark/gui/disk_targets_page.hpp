// The Disk Targets tab: the targets of the worker selected in the topology (ticked in the
// order the worker uses them) and its per-target settings: outstanding I/Os, maximum disk
// size, starting sector, data pattern. Input limits come from the field descriptors.
#pragma once

#include <QWidget>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "iomark/gui/managers.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace iomark::gui {

class PlanDocument;
class TargetsModel;

class DiskTargetsPage : public QWidget {
  Q_OBJECT

 public:
  explicit DiskTargetsPage(PlanDocument& document, QWidget* parent = nullptr);

  // Shows the plan manager's worker; `live` is the connected manager it runs on, if any.
  // Without a worker the page says what to select; a network worker's page is off, saying
  // where its partner is chosen.
  void show_worker(std::optional<std::size_t> manager, std::optional<std::size_t> worker,
                   std::optional<LiveManager> live);
  // The size of an iobw.tst made in a directory target when the worker's maximum disk size
  // is 0 ("the whole disk" in IOmeter, which would fill the file system).
  [[nodiscard]] std::uint64_t test_file_bytes() const noexcept { return test_file_bytes_; }
  // The sentence above the list: whose targets are shown, or why the page is off.
  [[nodiscard]] QString explanation() const;
  void set_test_file_bytes(std::uint64_t bytes);

 private:
  void refresh();
  void toggle(const QString& name, bool ticked);
  void add_path();
  void store_settings();
  [[nodiscard]] const access_specs::Worker* worker() const;

  PlanDocument& document_;
  std::optional<std::size_t> manager_;
  std::optional<std::size_t> worker_;
  std::optional<LiveManager> live_;
  std::uint64_t test_file_bytes_{1ULL << 30};
  bool loading_{false};
  QLabel* title_{};
  QTableView* view_{};
  TargetsModel* targets_{};
  QPushButton* add_path_{};
  QWidget* settings_{};
  QSpinBox* outstanding_{};
  QLineEdit* maximum_size_{};
  QLineEdit* starting_sector_{};
  QComboBox* data_pattern_{};
  QLineEdit* rate_{};
  QLineEdit* test_file_size_{};
  QLabel* settings_error_{};
};

}  // namespace iomark::gui
