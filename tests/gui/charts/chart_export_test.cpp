// Exported charts are valid PNG and SVG files; other suffixes and unwritable paths fail.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QSet>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/live_chart.hpp"

namespace iomark::gui {
namespace {

class ChartExport : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    chart_.resize(640, 600);
    for (int t = 0; t < 20; ++t) chart_.add_sample(LiveSample{double(t), 100.0 * t, 1.0 * t, 0.2, 0.9});
  }
  QTemporaryDir dir_;
  LiveChart chart_;
};

TEST_F(ChartExport, WritesAPngOfTheWidgetsSize) {
  const QString path = dir_.filePath("live.PNG");
  const auto exported = export_widget(chart_, path);
  ASSERT_TRUE(exported) << exported.error().describe();
  QImage image;
  ASSERT_TRUE(image.load(path, "PNG"));
  EXPECT_EQ(image.size(), QSize(640, 600));
  // Not a blank canvas: text, axes and the curves' colours are there.
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 2) {
    for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
  }
  EXPECT_GT(colours.size(), 20);
}

TEST_F(ChartExport, WritesAValidSvg) {
  const QString path = dir_.filePath("live.svg");
  const auto exported = export_widget(chart_, path);
  ASSERT_TRUE(exported) << exported.error().describe();
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray text = file.readAll();
  EXPECT_TRUE(text.contains("<svg"));
  EXPECT_TRUE(text.contains("<path") || text.contains("<polyline"));
  QSvgRenderer renderer(path);
  EXPECT_TRUE(renderer.isValid());
  EXPECT_EQ(renderer.viewBox(), QRect(0, 0, 640, 600));
}

TEST_F(ChartExport, RejectsOtherFormatsAndUnwritablePaths) {
  const auto jpeg = export_widget(chart_, dir_.filePath("live.jpg"));
  ASSERT_FALSE(jpeg);
  EXPECT_EQ(jpeg.error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(jpeg.error().location().file, dir_.filePath("live.jpg").toStdString());
  for (const char* name : {"missing/live.png", "missing/live.svg"}) {
    const auto missing = export_widget(chart_, dir_.filePath(name));
    ASSERT_FALSE(missing) << name;
    EXPECT_EQ(missing.error().code(), ErrorCode::io_error) << name;
  }
}

}  // namespace
}  // namespace iomark::gui
