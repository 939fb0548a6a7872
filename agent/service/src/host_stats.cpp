#include "iomark/agent/host_stats.hpp"

#include <algorithm>
#include <charconv>

#include <unistd.h>

#include "iomark/common/text_file.hpp"

namespace iomark::agent {

namespace {

std::string_view next_token(std::string_view& rest) {
  const auto start = rest.find_first_not_of(" \t");
  if (start == std::string_view::npos) {
    rest = {};
    return {};
  }
  rest.remove_prefix(start);
  const auto end = std::min(rest.find_first_of(" \t"), rest.size());
  const auto token = rest.substr(0, end);
  rest.remove_prefix(end);
  return token;
}

bool parse_u64(std::string_view token, std::uint64_t& value) {
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  return error == std::errc() && end == token.data() + token.size();
}

Error malformed(std::uint64_t line_number, std::string_view what) {
  return Error(ErrorCode::parse_error, "malformed " + std::string(what) + " line").at({"/proc/stat", line_number});
}

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : std::clamp(100.0 * static_cast<double>(part) / static_cast<double>(whole), 0.0, 100.0);
}

}  // namespace

Result<CpuSnapshot> parse_proc_stat(std::string_view text) {
  CpuSnapshot snapshot;
  std::uint64_t line_number = 0;
  while (!text.empty()) {
    const auto end = std::min(text.find('\n'), text.size());
    std::string_view rest = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++line_number;
    const auto key = next_token(rest);
    if (key == "intr") {
      if (!parse_u64(next_token(rest), snapshot.interrupts_total)) return fail(malformed(line_number, "intr"));
      continue;
    }
    // "cpu" alone is the sum of all CPUs; "cpuN" are the CPUs themselves.
    if (key.size() <= 3 || !key.starts_with("cpu")) continue;
    CpuTimes times;
    std::uint64_t cpu_number = 0;
    if (!parse_u64(key.substr(3), cpu_number) || cpu_number > UINT32_MAX) return fail(malformed(line_number, "cpu"));
    times.cpu = static_cast<std::uint32_t>(cpu_number);
    // Older kernels list fewer columns; the ones present are in this order.
    std::uint64_t* fields[] = {&times.user, &times.nice,    &times.system,  &times.idle,
                               &times.iowait, &times.irq, &times.softirq, &times.steal};
    std::size_t parsed = 0;
    for (auto* field : fields) {
      const auto token = next_token(rest);
      if (token.empty()) break;
      if (!parse_u64(token, *field)) return fail(malformed(line_number, "cpu"));
      ++parsed;
    }
    if (parsed < 4) return fail(malformed(line_number, "cpu"));
    snapshot.cpus.push_back(times);
  }
  if (snapshot.cpus.empty()) return fail(Error(ErrorCode::parse_error, "no cpuN lines").at({"/proc/stat", 0}));
  return snapshot;
}

Result<CpuSnapshot> read_cpu_snapshot() {
  auto text = read_text_file("/proc/stat");
  if (!text) return fail(std::move(text.error()));
  return parse_proc_stat(*text);
}

std::vector<CpuUtilisation> cpu_utilisation(const CpuSnapshot& before, const CpuSnapshot& after,
                                            double window_seconds) {
  std::vector<CpuUtilisation> result;
  for (const auto& end : after.cpus) {
    const auto start = std::find_if(before.cpus.begin(), before.cpus.end(),
                                    [&](const CpuTimes& times) { return times.cpu == end.cpu; });
    if (start == before.cpus.end()) continue;
    auto delta = [](std::uint64_t from, std::uint64_t to) { return to >= from ? to - from : 0; };
    const auto elapsed = delta(start->total(), end.total());
    const auto user = delta(start->user, end.user) + delta(start->nice, end.nice);
    const auto irq = delta(start->irq, end.irq) + delta(start->softirq, end.softirq);
    const auto privileged = delta(start->system, end.system) + irq;
    CpuUtilisation cpu;
    cpu.cpu = end.cpu;
    cpu.user = percent(user, elapsed);
    cpu.privileged = percent(privileged, elapsed);
    cpu.total = percent(user + privileged, elapsed);
    cpu.irq = percent(irq, elapsed);
    cpu.iowait = percent(delta(start->iowait, end.iowait), elapsed);
    cpu.idle = percent(delta(start->idle, end.idle), elapsed);
    result.push_back(cpu);
  }
  if (!result.empty() && window_seconds > 0) {
    result.front().interrupts_per_second =
        static_cast<double>(after.interrupts_total >= before.interrupts_total
                                ? after.interrupts_total - before.interrupts_total
                                : 0) /
        window_seconds;
  }
  return result;
}

double busy_cpu_seconds(const CpuSnapshot& before, const CpuSnapshot& after) noexcept {
  static const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  std::uint64_t busy = 0;
  for (const auto& end : after.cpus) {
    const auto start = std::find_if(before.cpus.begin(), before.cpus.end(),
                                    [&](const CpuTimes& times) { return times.cpu == end.cpu; });
    if (start == before.cpus.end()) continue;
    const auto busy_before = start->total() - start->idle - start->iowait;
    const auto busy_after = end.total() - end.idle - end.iowait;
    if (busy_after > busy_before) busy += busy_after - busy_before;
  }
  return ticks_per_second > 0 ? static_cast<double>(busy) / static_cast<double>(ticks_per_second) : 0.0;
}

double cpu_effectiveness(double iops, double cpu_percent) noexcept {
  return cpu_percent > 0 ? iops / cpu_percent : 0.0;
}

double mean_total(const std::vector<CpuUtilisation>& cpus) noexcept {
  if (cpus.empty()) return 0.0;
  double sum = 0;
  for (const auto& cpu : cpus) sum += cpu.total;
  return sum / static_cast<double>(cpus.size());
}

}  // namespace iomark::agent
