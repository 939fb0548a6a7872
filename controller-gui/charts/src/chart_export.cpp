#include "iomark/gui/charts/chart_export.hpp"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace iomark::gui {

namespace {

Error file_error(ErrorCode code, const QString& path, const std::string& message) {
  return Error(code, message).at({path.toStdString(), 0});
}

Result<void> export_png(QWidget& widget, const QString& path) {
  // grab() paints even a widget that was never shown (offscreen, in tests and scripts).
  const QImage image = widget.grab().toImage();
  if (image.isNull()) return fail(file_error(ErrorCode::internal, path, "the widget has no size to render"));
  if (!image.save(path, "PNG")) return fail(file_error(ErrorCode::io_error, path, "cannot write the PNG file"));
  return {};
}

Result<void> export_svg(QWidget& widget, const QString& path) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(widget.size());
  generator.setViewBox(QRect(QPoint(0, 0), widget.size()));
  generator.setTitle(widget.windowTitle());
  generator.setDescription(QStringLiteral("iomark chart"));
  QPainter painter;
  if (!painter.begin(&generator)) {
    return fail(file_error(ErrorCode::io_error, path, "cannot write the SVG file"));
  }
  widget.render(&painter);
  painter.end();
  // QSvgGenerator reports no write errors; an empty file is the sign of one.
  if (QFileInfo(path).size() == 0) return fail(file_error(ErrorCode::io_error, path, "cannot write the SVG file"));
  return {};
}

}  // namespace

Result<void> export_widget(QWidget& widget, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return export_png(widget, path);
  if (suffix == QLatin1String("svg")) return export_svg(widget, path);
  return fail(file_error(ErrorCode::invalid_argument, path, "charts are exported as .png or .svg files"));
}

void add_export_action(QWidget& widget, const QString& suggested_name) {
  auto* action = new QAction(QObject::tr("Export as PNG or SVG..."), &widget);
  widget.addAction(action);
  widget.setContextMenuPolicy(Qt::ActionsContextMenu);
  QObject::connect(action, &QAction::triggered, &widget, [&widget, suggested_name] {
    const QString path = QFileDialog::getSaveFileName(&widget, QObject::tr("Export chart"), suggested_name + ".png",
                                                      QObject::tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty()) return;
    const auto exported = export_widget(widget, path);
    if (exported) return;
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("Export failed"),
                                QString::fromStdString(exported.error().describe()), QMessageBox::Ok, &widget);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  });
}

}  // namespace iomark::gui
