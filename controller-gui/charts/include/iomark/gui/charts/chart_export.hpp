// Saving what a chart widget shows as a PNG (pixels, as on screen) or an SVG (vectors).
//
// GUI thread only.
#pragma once

#include <QString>

#include "iomark/common/result.hpp"

class QWidget;

namespace iomark::gui {

// Renders `widget` (with its children) into `path`; the suffix picks the format: `.png` or
// `.svg` (case-insensitive). Errors: invalid_argument for another suffix, io_error when
// the file cannot be written, both naming the path.
[[nodiscard]] Result<void> export_widget(QWidget& widget, const QString& path);

// Gives `widget` a context-menu action "Export as PNG or SVG..." that asks for a file name
// (suggested: `suggested_name`.png) and exports; a failure is shown in a non-modal message box.
void add_export_action(QWidget& widget, const QString& suggested_name);

}  // namespace iomark::gui
