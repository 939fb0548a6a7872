// `iomark run --metrics-listen ADDR:PORT`: a series observer that keeps the live figures in
// Prometheus' text format and a tiny HTTP server that serves them at GET /metrics.
//
// The server is deliberately small and bounded: one thread of its own, at most
// kMaxConnections connections at once (more wait in the listen backlog), requests up to
// 8 KiB read within 5 s, one response per connection (Connection: close). Anything but
// GET /metrics gets 404 (or 405 for another method).
//
// Threading: the observer side is called from the series runner's thread, the server runs
// on its own; the rendered text passes between them under a mutex. The destructor stops the
// server and joins its thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/metrics/prometheus_text.hpp"

namespace iomark::metrics {

inline constexpr std::size_t kMaxConnections = 8;

class MetricsExporter final : public controller::SeriesObserver {
 public:
  // Listens on "[ADDR:]PORT" (a bare port listens on 127.0.0.1: metrics of a lab stay on
  // the host unless an address says otherwise; port 0 picks a free port). Errors:
  // invalid_argument for a malformed address, io_error when it cannot listen.
  [[nodiscard]] static Result<std::unique_ptr<MetricsExporter>> start(std::string_view listen_address);
  ~MetricsExporter() override;
  MetricsExporter(const MetricsExporter&) = delete;
  MetricsExporter& operator=(const MetricsExporter&) = delete;

  // The address it listens on, with the real port: "127.0.0.1:40123".
  [[nodiscard]] std::string address() const;

  void run_started(std::size_t index, std::size_t count, const controller::RunPlan& run) override;
  void live(const controller::LiveFigures& figures) override;
  [[nodiscard]] bool wants_snapshot() const override { return true; }
  void run_finished(std::size_t index, const results::RunResults& run, const results::RunSummary& summary) override;
  void run_failed(std::size_t index, const controller::RunPlan& run, const Error& error) override;

  // What GET /metrics answers now.
  [[nodiscard]] std::string text() const;

 private:
  struct Server;
  explicit MetricsExporter(std::unique_ptr<Server> server);
  void publish(const results::RunResults* run, const results::RunSummary* summary);

  std::unique_ptr<Server> server_;
  SeriesProgress progress_;  // runner thread only
};

}  // namespace iomark::metrics
