// The Access Specifications tab: the specs assigned to the selected worker (in run order,
// reorderable) beside the global library (the plan's specs and the built-ins), and the editor
// dialog for multi-line specs, which checks every cell against the field descriptors as it is
// typed and the whole spec with access_specs::validate().
#pragma once

#include <QDialog>
#include <QWidget>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableView;

namespace iomark::gui {

class PlanDocument;
class SpecLibraryModel;
class SpecLinesModel;

class SpecEditorDialog : public QDialog {
  Q_OBJECT

 public:
  // `taken`: names of the other specs of the plan (a spec's name must be unique).
  SpecEditorDialog(const access_specs::AccessSpec& spec, std::vector<std::string> taken, QWidget* parent = nullptr);

  // The edited spec; valid once the dialog is accepted.
  [[nodiscard]] const access_specs::AccessSpec& spec() const noexcept { return spec_; }
  // The current problem, empty when the spec is valid (what the dialog shows under the table).
  [[nodiscard]] QString problem() const;
  [[nodiscard]] SpecLinesModel& lines() noexcept { return *lines_; }
  [[nodiscard]] QLineEdit& name_editor() noexcept { return *name_; }

 private:
  void check();

  access_specs::AccessSpec spec_;
  std::vector<std::string> taken_;
  QLineEdit* name_{};
  QComboBox* default_assignment_{};
  SpecLinesModel* lines_{};
  QTableView* view_{};
  QLabel* problem_{};
  QDialogButtonBox* buttons_{};
};

class AccessSpecsPage : public QWidget {
  Q_OBJECT

 public:
  explicit AccessSpecsPage(PlanDocument& document, QWidget* parent = nullptr);

  // The worker whose assignments are shown, or none.
  void show_worker(std::optional<std::size_t> manager, std::optional<std::size_t> worker);
  // Assigns the library spec named `name` to the shown worker (appended).
  void assign(const std::string& name);

 private:
  void refresh_assigned();
  void refresh_library();
  void unassign();
  void move_assigned(int by);
  void new_spec();
  void edit_spec();
  void copy_spec();
  void delete_spec();
  // Opens the editor; a plan spec named `replaces` is replaced by the result.
  void edit(const access_specs::AccessSpec& spec, std::optional<std::string> replaces);
  [[nodiscard]] const access_specs::AccessSpec* selected_library_spec(bool* from_plan = nullptr) const;
  [[nodiscard]] std::vector<std::string> spec_names_except(const std::string& name) const;

  PlanDocument& document_;
  std::optional<std::size_t> manager_;
  std::optional<std::size_t> worker_;
  QLabel* assigned_title_{};
  QListWidget* assigned_{};
  QTableView* library_view_{};
  SpecLibraryModel* library_{};
  QPushButton* assign_{};
  QPushButton* unassign_{};
  QPushButton* up_{};
  QPushButton* down_{};
  QPushButton* edit_{};
  QPushButton* delete_{};
};

}  // namespace iomark::gui
