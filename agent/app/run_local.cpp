#include "run_local.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <iostream>
#include <spdlog/spdlog.h>
#include <thread>

#include "iomark/app_runtime/exit_status.hpp"
#include "iomark/app_runtime/progress_line.hpp"
#include "iomark/common/host_name.hpp"
#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/agent/run_session.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/common/units.hpp"
#include "iomark/results/durable_append.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/summary.hpp"
#include "iomark/results/verify_summary.hpp"
#include "iomark/run_builder/run_builder.hpp"
#include "iomark/run_options/run_flags.hpp"

namespace iomark::agent_app {

using app_runtime::bad_input;
using app_runtime::usage_error;

namespace {

// run-local makes one run: a --qd list, which cycles under `iomark run`, is refused here.
Result<std::uint32_t> single_outstanding_ios(const access_specs::RunRequest& request) {
  if (request.outstanding_ios.size() != 1) {
    return fail(Error(ErrorCode::invalid_argument, "run-local makes one run: give one value (iomark run cycles a list)")
                    .in_field("--qd"));
  }
  return request.outstanding_ios.front();
}

// The assignment the agent daemon would run for the same work from a controller; run-local
// makes the planned test files itself while the session prepares.
Result<agent::RunAssignment> assignment_of(const access_specs::RunRequest& request, std::uint32_t outstanding_ios) {
  const auto cpu_count = static_cast<std::uint32_t>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  run_builder::RunBuilder builder;
  const auto work = builder.requested_work(request, 0, cpu_count, outstanding_ios);
  auto assignment = agent::run_assignment_of(work.assignment);
  if (!assignment) return fail(assignment.error());
  for (auto& worker : assignment->workers) {
    for (auto& target : worker.targets) {
      for (const auto& planned : work.prepare) {
        if (planned.path == target.path) target.test_file_bytes = planned.size_bytes;
      }
    }
  }
  return assignment;
}

// Waits `seconds` or until a stop request, showing progress: each second on a terminal, every
// 10 s in a log. During recording the line carries live IOPS and MB/s.
void wait_with_progress(agent::RunSession& session, std::string_view phase, std::uint32_t seconds, bool recording,
                        const std::stop_token& stop) {
  app_runtime::ProgressLine progress;
  constexpr auto kStopCheck = std::chrono::milliseconds(50);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t previous_ios = 0;
  std::uint64_t previous_bytes = 0;
  for (std::uint32_t elapsed = 1; elapsed <= seconds; ++elapsed) {
    const auto until = start + std::chrono::seconds(elapsed);
    while (std::chrono::steady_clock::now() < until && !stop.stop_requested()) {
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(kStopCheck, until - std::chrono::steady_clock::now()));
    }
    if (session.failure() || stop.stop_requested()) break;
    if (!progress.on_terminal() && elapsed % 10 != 0 && elapsed != seconds) continue;
    std::string line = fmt::format("{} {}/{} s", phase, elapsed, seconds);
    if (recording) {
      std::uint64_t ios = 0;
      std::uint64_t bytes = 0;
      for (const auto& worker : session.snapshot("local").workers) {
        for (const auto& target : worker.targets) {
          ios += target.counters.io_count();
          bytes += target.counters.bytes_read + target.counters.bytes_written;
        }
      }
      const double interval =
          progress.on_terminal() ? 1.0 : (elapsed % 10 == 0 ? 10.0 : static_cast<double>(elapsed % 10));
      line += fmt::format(": {:.0f} IOPS, {:.1f} MB/s", static_cast<double>(ios - previous_ios) / interval,
                          static_cast<double>(bytes - previous_bytes) / 1e6 / interval);
      previous_ios = ios;
      previous_bytes = bytes;
    }
    progress.show(line);
  }
  progress.finish();
}

std::string milliseconds(Nanoseconds latency) { return fmt::format("{:.3f}", static_cast<double>(latency.count()) / 1e6); }

void print_summary(std::FILE* out, const results::RunSummary& summary, const results::RunResults& run,
                   double busy_cpu_seconds) {
  std::fprintf(out, "%-10s %12s %10s %9s %9s %9s %9s %9s %7s\n", "", "IOPS", "MB/s", "avg ms", "p50 ms", "p99 ms",
              "p99.9 ms", "max ms", "errors");
  auto row = [out](const std::string& name, const results::Summary& s) {
    const auto& latency = s.counters.latency;
    std::fprintf(out, "%-10s %12.1f %10.2f %9.3f %9s %9s %9s %9.3f %7llu\n", name.c_str(), s.rates.iops, s.rates.mb_per_s,
                s.average_response_ms(), milliseconds(latency.percentile(50)).c_str(),
                milliseconds(latency.percentile(99)).c_str(), milliseconds(latency.percentile(99.9)).c_str(),
                s.maximum_response_ms(), static_cast<unsigned long long>(s.counters.error_count()));
  };
  const auto& manager = summary.managers.front();
  for (std::size_t w = 0; w < manager.workers.size(); ++w) row(run.managers.front().workers[w].name, manager.workers[w].total);
  row("ALL", summary.all);
  const double cpu = summary.all.cpu ? summary.all.cpu->total_percent : 0.0;
  const auto ios = summary.all.counters.io_count();
  std::fprintf(out, "\nCPU %.1f%% (user+system, all CPUs), %.2f CPU-us per I/O (whole system, kernel threads included)\n",
              cpu, ios == 0 ? 0.0 : busy_cpu_seconds * 1e6 / static_cast<double>(ios));
}

}  // namespace

int run_local(const RunLocalOptions& options, app_runtime::StopSignals& stop_signals) {
  auto request = run_options::make_run_request(options.run);
  if (!request) return usage_error(request.error());
  if (request->description.empty()) request->description = "iomark-agent run-local";
  const auto queue_depth = single_outstanding_ios(*request);
  if (!queue_depth) return usage_error(queue_depth.error());
  const auto assignment = assignment_of(*request, *queue_depth);
  if (!assignment) return bad_input(assignment.error());
  // The operator named these targets on our own command line: that is the write scope. A
  // file that does not exist yet is created at --size; a missing directory is an error.
  const auto policy = targets::SafetyPolicy::create(
      run_options::write_scope_paths(*request),
      options.allow_destructive ? targets::Destructive::allow : targets::Destructive::refuse,
      targets::MissingPath::allow_new_file);
  if (!policy) return bad_input(policy.error());

  app_runtime::ProgressLine preparing;
  auto session = agent::RunSession::prepare(
      *assignment, *policy, [](const std::string& notice) { spdlog::info("{}", notice); },
      [&preparing](Bytes done, Bytes total) {
        const auto text = "  " + format_size(done) + " of " + format_size(total);
        if (done == total) {
          preparing.keep(text);
        } else if (preparing.on_terminal()) {
          preparing.show(text);
        }
      });
  if (!session) return bad_input(session.error());
  for (const auto& note : (*session)->verify_notes()) spdlog::info("verify {}", note);

  results::RunResults run;
  run.info.description = request->description;
  run.info.queue_depth = *queue_depth;
  run.info.specs = {request->spec};
  // From here a signal ends the run early; what was measured is still summed up and written.
  const auto stop = stop_signals.request_stop_on([](int signal_number) {
    spdlog::warn("SIG{}: ending the run now and writing its results (a second signal exits at once)",
                 sigabbrev_np(signal_number));
  });
  if (auto started = (*session)->start(); !started) {
    return app_runtime::exit_with(ExitCode::run_failed, started.error());
  }
  spdlog::info("running: {} s ramp-up, {} s recorded", request->ramp_up_s.value_or(0),
               request->run_time_s.value_or(access_specs::kDefaultRunTimeS));
  wait_with_progress(**session, "ramp-up", request->ramp_up_s.value_or(0), false, stop);
  (*session)->record_on();
  run.info.start_time = results::wall_clock_now();
  if (!stop.stop_requested()) {
    wait_with_progress(**session, "run", request->run_time_s.value_or(access_specs::kDefaultRunTimeS), true, stop);
  }
  (*session)->record_off();
  run.info.end_time = results::wall_clock_now();
  (*session)->stop();
  run.managers.push_back((*session)->results(local_host_name()));
  // Cut short by a signal, the run keeps what it measured and says so (JSON "interrupted").
  if (stop.stop_requested()) run.end = results::RunEnd::interrupted;

  // With --json - standard output carries the JSON alone; the report moves to stderr.
  const bool json_to_stdout = request->results_json == run_options::kStandardOutput;
  std::FILE* report = json_to_stdout ? stderr : stdout;
  for (const auto& note : (*session)->engine_notes()) std::fprintf(report, "engine %s\n", note.c_str());
  std::fprintf(report, "spec \"%s\", %u worker(s) x %zu target(s), %u outstanding I/Os each\n\n", request->spec.name.c_str(),
               request->workers, request->targets.size(), *queue_depth);
  const auto summary = results::summarize_run(run);
  print_summary(report, summary, run, (*session)->busy_cpu_seconds());
  const auto verify_lines = results::verify_lines(run);
  if (!verify_lines.empty()) std::fprintf(report, "\nverify\n");
  for (const auto& line : verify_lines) std::fprintf(report, "%s\n", line.c_str());

  int exit_code = to_int(ExitCode::ok);
  if (auto failed = (*session)->failure()) {
    spdlog::error("the run stopped early: {}", failed->describe());
    exit_code = to_int(ExitCode::run_failed);
  } else if (const int signal_number = stop_signals.first_signal(); signal_number != 0) {
    spdlog::warn("the run was stopped by SIG{}", sigabbrev_np(signal_number));
    exit_code = exit_code_for_signal(signal_number);
  } else if (const auto bad = results::bad_blocks(run); bad != 0) {
    // The data did not survive: the run failed, whatever its figures say.
    spdlog::error("--verify found {} bad block(s)", bad);
    exit_code = to_int(ExitCode::run_failed);
  }
  results::SeriesInfo series{access_specs::TestType::normal, run.info.description, run.info.start_time,
                             access_specs::RecordResults::all, IOMARK_VERSION};
  const auto outcome = exit_code == 0 ? results::SeriesOutcome::completed : results::SeriesOutcome::aborted;
  if (!request->results_csv.empty()) {
    results::ResultsCsvAppender appender;
    const auto text = appender.begin_series(series) + appender.append_run(run, summary) + appender.end_series(outcome);
    if (auto appended = results::append_durably(request->results_csv, text); !appended) {
      exit_code = bad_input(appended.error());
    }
  }
  if (json_to_stdout) {
    std::fflush(report);
    std::cout << results::write_results_json({series, std::nullopt, {run}, outcome}) << std::flush;
  } else if (!request->results_json.empty()) {
    const results::SeriesResults all{series, std::nullopt, {run}, outcome};
    if (auto written = results::replace_durably(request->results_json, results::write_results_json(all)); !written) {
      exit_code = bad_input(written.error());
    }
  }
  return exit_code;
}

}  // namespace iomark::agent_app
