// legacy_gui_figures LOGIN_BLOCK RESULTS: the figures an IOmeter 1.1.0 GUI shows for one
// manager, computed from what the manager sent (files of tools/legacy_relay's RESULTS_PREFIX:
// its login block, for the timer resolution, and its answer to one REPORT_RESULTS: a
// Manager_Results block and one Worker_Results block per worker), the way the GUI computes
// them (docs/iometer-reference.md; its Worker::UpdateResults and Manager::UpdateResults):
// per target, rates are counts over the worker's window (time_end - time_start ticks over the
// timer resolution) and latencies are tick sums times 1000 over the resolution; the manager's
// rates are the sums of its targets', its average response is all latency over all I/Os, its
// maximum the largest, its bins the sums, its CPU the mean of its CPUs' totals.
// Prints `name value` lines: iops, mib_per_s, mb_per_s, average_ms, maximum_ms, cpu_percent,
// bin0 .. bin20. Exits 1 on a file that does not decode.
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/wire.hpp"

namespace {

namespace legacy = iomark::legacy;

std::vector<std::byte> read_bytes(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) bytes[i] = static_cast<std::byte>(chars[i]);
  return bytes;
}

int fail(const std::string& what) {
  std::cerr << "legacy_gui_figures: " << what << '\n';
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return fail("usage: legacy_gui_figures LOGIN_BLOCK RESULTS");
  const auto login = read_bytes(argv[1]);
  const auto info = legacy::decode_manager_info(login);
  if (!info) return fail(std::string(argv[1]) + ": " + info.error().describe());
  const double hz = info->timer_resolution_hz;
  const auto answer = read_bytes(argv[2]);
  if (answer.empty() || answer.size() % legacy::kDataMessageBytes != 0) {
    return fail(std::string(argv[2]) + ": " + std::to_string(answer.size()) + " bytes is not whole blocks");
  }
  const std::span<const std::byte> all(answer);
  const auto manager = legacy::decode_manager_results(all.first(legacy::kDataMessageBytes));
  if (!manager) return fail("Manager_Results: " + manager.error().describe());

  double iops = 0;
  double mib_per_s = 0;
  double mb_per_s = 0;
  double maximum_ms = 0;
  double latency_ticks = 0;
  double ios = 0;
  std::array<std::uint64_t, legacy::kLatencyBinCount> bins{};
  for (std::size_t at = legacy::kDataMessageBytes; at < all.size(); at += legacy::kDataMessageBytes) {
    const auto worker = legacy::decode_worker_results(all.subspan(at, legacy::kDataMessageBytes));
    if (!worker) return fail("Worker_Results: " + worker.error().describe());
    const double run_time = static_cast<double>(worker->time_end - worker->time_start) / hz;
    for (const auto& target : worker->targets) {
      if (run_time > 0) {
        iops += static_cast<double>(target.read_count + target.write_count) / run_time;
        mib_per_s += static_cast<double>(target.bytes_read + target.bytes_written) / 1048576.0 / run_time;
        mb_per_s += static_cast<double>(target.bytes_read + target.bytes_written) / 1e6 / run_time;
      }
      // The GUI's maximum is the larger of the read and the write maximum.
      const auto max_ticks = std::max(target.max_raw_read_latency, target.max_raw_write_latency);
      maximum_ms = std::max(maximum_ms, static_cast<double>(max_ticks) * 1000.0 / hz);
      latency_ticks += static_cast<double>(target.read_latency_sum + target.write_latency_sum);
      ios += static_cast<double>(target.read_count + target.write_count);
      for (std::size_t b = 0; b < bins.size(); ++b) bins[b] += target.latency_bins[b];
    }
  }
  double cpu = 0;
  for (const auto& c : manager->cpus) cpu += c.total_percent;
  if (!manager->cpus.empty()) cpu /= static_cast<double>(manager->cpus.size());

  std::cout.precision(12);
  std::cout << "iops " << iops << "\nmib_per_s " << mib_per_s << "\nmb_per_s " << mb_per_s << "\naverage_ms "
            << (ios > 0 ? latency_ticks * 1000.0 / hz / ios : 0.0) << "\nmaximum_ms " << maximum_ms << "\ncpu_percent "
            << cpu << '\n';
  for (std::size_t b = 0; b < bins.size(); ++b) std::cout << "bin" << b << ' ' << bins[b] << '\n';
  return 0;
}
