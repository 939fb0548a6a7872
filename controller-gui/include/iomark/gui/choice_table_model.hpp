// A table whose rows are plain values that the plan's state replaces as a whole (the Disk
// Targets and Network Targets lists): set_choices() keeps the view's selection and scroll
// position when only the rows' contents changed (a tick moved), and resets it otherwise.
#pragma once

#include <QAbstractTableModel>
#include <algorithm>
#include <vector>

namespace iomark::gui {

template <class Choice>
class ChoiceTableModel : public QAbstractTableModel {
 public:
  using QAbstractTableModel::QAbstractTableModel;

  void set_choices(std::vector<Choice> choices) {
    if (choices == choices_) return;
    if (choices.size() == choices_.size() &&
        std::equal(choices.begin(), choices.end(), choices_.begin(),
                   [this](const Choice& a, const Choice& b) { return same_row(a, b); })) {
      choices_ = std::move(choices);
      emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
      return;
    }
    beginResetModel();
    choices_ = std::move(choices);
    endResetModel();
  }
  [[nodiscard]] const std::vector<Choice>& choices() const noexcept { return choices_; }

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override {
    return parent.isValid() ? 0 : static_cast<int>(choices_.size());
  }

 protected:
  // Whether `a` and `b` are the same row (what a selection follows), whatever else changed.
  [[nodiscard]] virtual bool same_row(const Choice& a, const Choice& b) const = 0;

  std::vector<Choice> choices_;
};

}  // namespace iomark::gui
