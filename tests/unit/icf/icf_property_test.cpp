// Property: for random plans that an .icf can hold, read(write(plan)) == plan and reading
// the written text produces no warning. The generator is seeded, so failures reproduce.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "iomark/common/ascii.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::icf {
namespace {

using namespace access_specs;

class PlanGenerator {
 public:
  explicit PlanGenerator(std::uint64_t seed) : random_(seed) {}

  TestPlan plan() {
    TestPlan plan;
    if (chance(4, 5)) plan.setup = setup();
    if (chance(4, 5)) plan.display = display();
    std::vector<std::string> spec_names;
    if (chance(4, 5)) {
      plan.access_specs = specs();
      for (const auto& spec : *plan.access_specs) spec_names.push_back(spec.name);
    }
    if (chance(4, 5)) plan.managers = managers(spec_names);
    return plan;
  }

 private:
  std::uint64_t below(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random_); }
  bool chance(std::uint64_t in, std::uint64_t of) { return below(of) < in; }
  std::uint32_t u32() {
    switch (below(4)) {
      case 0: return static_cast<std::uint32_t>(below(3));
      case 1: return 4294967295U;
      default: return static_cast<std::uint32_t>(random_());
    }
  }
  std::uint64_t u64() { return chance(1, 4) ? 18446744073709551615ULL : random_(); }
  std::uint32_t percent() { return static_cast<std::uint32_t>(below(101)); }

  // Text a value line can hold: no line breaks, no NUL, no whitespace at either end.
  // `forbidden` lists characters the field's grammar reserves.
  std::string text(std::size_t max_length, std::string_view forbidden = "", bool may_be_empty = true) {
    static constexpr std::string_view kAlphabet =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t',;:%[]*\"()/\\.-_#|=~`\xc3\xa9";
    std::string out;
    const auto length = (may_be_empty ? 0 : 1) + below(max_length);
    while (out.size() < length) {
      const char c = kAlphabet[below(kAlphabet.size())];
      if (forbidden.find(c) == std::string_view::npos) out += c;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    while (!out.empty() && (out.front() == ' ' || out.front() == '\t')) out.erase(out.begin());
    if (out.empty() && !may_be_empty) out = "x";
    return out;
  }

  template <typename Enum>
  Enum pick(std::uint32_t count) {
    return static_cast<Enum>(below(count));
  }

  WorkersToSpawn spawn() { return chance(1, 3) ? WorkersToSpawn{std::nullopt} : WorkersToSpawn{u32()}; }

  TestSetup setup() {
    TestSetup s;
    s.description = text(60);
    s.run_time_s = u32();
    s.ramp_up_s = u32();
    s.default_disk_workers = spawn();
    s.default_network_workers = spawn();
    s.record_results = pick<RecordResults>(5);
    s.worker_cycling = {u32(), u32(), pick<StepType>(2)};
    s.target_cycling = {u32(), u32(), pick<StepType>(2)};
    s.queue_depth_cycling = {u32(), u32(), u32(), pick<StepType>(2)};
    s.test_type = pick<TestType>(8);
    return s;
  }

  ResultsDisplay display() {
    static constexpr std::string_view kStatistics[] = {"Total I/Os per Second", "% CPU Utilization (total)",
                                                       "Avg. Read Response Time (ms)", "Packet Errors"};
    static constexpr std::uint32_t kFrequencies[] = {0, 1, 2, 3, 4, 5, 10, 15, 30, 45, 60};
    ResultsDisplay d;
    d.record_last_update = chance(1, 2);
    d.update_frequency_s = kFrequencies[below(std::size(kFrequencies))];
    d.update_type = pick<UpdateType>(2);
    std::vector<std::uint32_t> numbers{1, 2, 3, 4, 5, 6};
    std::shuffle(numbers.begin(), numbers.end(), random_);
    numbers.resize(below(7));
    for (const auto number : numbers) {
      BarChart bar;
      bar.number = number;
      bar.statistic = std::string(kStatistics[below(std::size(kStatistics))]);
      if (chance(1, 2)) {
        bar.manager_id = u32();
        bar.manager_name = text(20);
        if (chance(1, 2)) {
          bar.worker_id = u32();
          bar.worker_name = text(20);
        }
      }
      d.bar_charts.push_back(bar);
    }
    return d;
  }

  std::vector<AccessSpec> specs() {
    std::vector<AccessSpec> out;
    std::set<std::string> seen;
    const auto count = below(8);
    while (out.size() < count) {
      AccessSpec spec;
      spec.name = text(40, ",", false);
      if (!seen.insert(ascii::to_lower(spec.name)).second) continue;
      spec.default_assignment = pick<DefaultAssignment>(4);
      const auto lines = 1 + below(chance(1, 10) ? 100 : 5);
      std::uint32_t left = 100;
      for (std::uint64_t i = 0; i < lines; ++i) {
        AccessSpecLine line;
        line.size_bytes = 1 + static_cast<std::uint32_t>(below(4294967295U));
        line.percent_of_size = i + 1 == lines ? left : static_cast<std::uint32_t>(below(left + 1));
        left -= line.percent_of_size;
        line.percent_reads = percent();
        line.percent_random = percent();
        line.delay_ms = u32();
        line.burst_transactions = u32();
        line.align_bytes = u32();
        line.reply_bytes = u32();
        spec.lines.push_back(line);
      }
      out.push_back(std::move(spec));
    }
    return out;
  }

  Target target(WorkerType worker_type) {
    Target t;
    t.name = text(50, "", false);
    t.type = worker_type;
    if (worker_type != WorkerType::disk) {
      t.remote_manager_id = u32();
      t.remote_manager_name = text(20);
    }
    return t;
  }

  Worker worker(const std::vector<std::string>& spec_names) {
    Worker w;
    w.name = text(30);
    w.type = pick<WorkerType>(3);
    w.outstanding_ios = u32();
    w.test_connection_rate = chance(1, 2);
    w.transactions_per_connection = u32();
    w.use_fixed_seed = chance(1, 2);
    w.fixed_seed = u64();
    if (w.type == WorkerType::disk) {
      w.maximum_disk_size_sectors = u64();
      w.starting_sector = u64();
      w.data_pattern = pick<DataPattern>(3);
    } else {
      w.local_network_interface = text(30);
    }
    if (w.type == WorkerType::network_vi) w.vi_outstanding_ios = u32();
    if (chance(3, 4)) {
      std::vector<std::string> assigned;
      const auto count = below(6);
      for (std::uint64_t i = 0; i < count && !spec_names.empty(); ++i) {
        assigned.push_back(spec_names[below(spec_names.size())]);
      }
      w.assigned_specs = assigned;
    }
    if (chance(3, 4)) {
      std::vector<Target> targets;
      const auto count = below(5);
      for (std::uint64_t i = 0; i < count; ++i) targets.push_back(target(w.type));
      w.targets = targets;
    }
    return w;
  }

  std::vector<Manager> managers(const std::vector<std::string>& spec_names) {
    std::vector<Manager> out(below(4));
    for (auto& m : out) {
      m.id = u32();
      m.name = text(30);
      m.network_address = text(20);
      m.workers.resize(below(4));
      for (auto& w : m.workers) w = worker(spec_names);
    }
    return out;
  }

  std::mt19937_64 random_;
};

TEST(IcfProperty, RandomPlansRoundTrip) {
  PlanGenerator generate(0x1cf0'2024);
  for (int round = 0; round < 500; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const TestPlan plan = generate.plan();
    const std::string text = write_icf(plan);
    auto imported = read_icf(text, "random.icf");
    ASSERT_TRUE(imported.has_value()) << imported.error().describe() << "\n" << text;
    EXPECT_EQ(imported->plan, plan) << text;
    EXPECT_EQ(imported->version_number, 10000100000ULL);
    for (const auto& warning : imported->warnings) ADD_FAILURE() << warning.line << ": " << warning.message;
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace iomark::icf
