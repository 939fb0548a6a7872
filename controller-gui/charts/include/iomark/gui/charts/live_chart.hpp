// Live time series of the run in progress: IOPS and MB/s in one chart, average and p99
// latency in the other, over the seconds since the series started.
//
// Bounded memory: only the newest `capacity` samples are kept and drawn. GUI thread only;
// feed it from the bridge's queued signal carrying controller::LiveFigures.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

#include <QMetaType>
#include <QWidget>

class QChart;
class QLineSeries;
class QValueAxis;

namespace iomark::gui {

// One live sample, as controller::LiveFigures reports it (iops, mb_per_s, average_ms, p99_ms)
// plus the caller's clock.
struct LiveSample {
  double time_s{};    // since the series started, non-decreasing
  double iops{};
  double mb_per_s{};  // 10^6 bytes/s
  double average_ms{};
  std::optional<double> p99_ms;  // not known when a Dynamo takes part (no histogram): no point
};

class LiveChart : public QWidget {
  Q_OBJECT

 public:
  static constexpr std::size_t kDefaultCapacity = 600;  // ten minutes of 1 s samples

  explicit LiveChart(QWidget* parent = nullptr, std::size_t capacity = kDefaultCapacity);

  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::size_t sample_count() const noexcept { return samples_.size(); }
  // The two charts, for styling and tests: series 0 IOPS and 1 MB/s; series 0 average and 1 p99 ms.
  [[nodiscard]] QChart* throughput_chart() const noexcept { return throughput_; }
  [[nodiscard]] QChart* latency_chart() const noexcept { return latency_; }

 public slots:
  // Appends a sample, dropping the oldest beyond the capacity, and rescales the axes.
  void add_sample(const iomark::gui::LiveSample& sample);
  // Forgets every sample (a new series starts).
  void clear();

 private:
  void rescale();

  std::size_t capacity_;
  std::deque<LiveSample> samples_;
  QChart* throughput_;
  QChart* latency_;
  QLineSeries* iops_;
  QLineSeries* mb_per_s_;
  QLineSeries* average_ms_;
  QLineSeries* p99_ms_;
  QValueAxis* throughput_time_;
  QValueAxis* iops_axis_;
  QValueAxis* mb_per_s_axis_;
  QValueAxis* latency_time_;
  QValueAxis* ms_axis_;
};

}  // namespace iomark::gui

Q_DECLARE_METATYPE(iomark::gui::LiveSample)
