// iomark-sim-fleet: N simulated agents (sim_fleet.hpp) logging in to one controller, until
// SIGINT/SIGTERM or until the controller has closed every connection. main() only wires.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>

#include "iomark/app_runtime/stop_signals.hpp"
#include "iomark/common/exit_code.hpp"
#include "iomark/sim_fleet/sim_fleet.hpp"
#include "iomark/transport/key_file.hpp"
#include "iomark/transport/session_config.hpp"

namespace {

constexpr auto kEstablishTimeout = std::chrono::seconds(60);
constexpr auto kWatchEvery = std::chrono::milliseconds(100);

void print_counts(const char* when, const iomark::sim_fleet::FleetCounts& counts) {
  std::fprintf(stderr,
               "sim-fleet %s: connected %zu, refused %zu, dropped %zu, runs started %llu, samples sent %llu, "
               "final results sent %llu\n",
               when, counts.connected, counts.refused, counts.dropped,
               static_cast<unsigned long long>(counts.runs_started), static_cast<unsigned long long>(counts.samples_sent),
               static_cast<unsigned long long>(counts.final_results_sent));
}

}  // namespace

int main(int argc, char** argv) {
  iomark::app_runtime::StopSignals stop_signals;  // first: before any thread exists
  using iomark::ExitCode;
  using iomark::to_int;
  CLI::App app{"iomark-sim-fleet: simulated iomark agents logging in to one controller (a test tool)"};
  iomark::sim_fleet::FleetOptions options;
  std::string controller;
  std::optional<std::string> key_file;
  bool insecure = false;
  iomark::transport::TlsFiles tls_files;
  std::uint32_t interval_ms = 1000;
  app.add_option("-i,--controller", controller, "the controller's HOST:PORT (iomark run --listen)")->required();
  app.add_option("-n,--agents", options.agents, "how many agents")->check(CLI::Range(1, 100000));
  app.add_option("--first-index", options.first_index, "number of the first agent's name");
  app.add_option("--name-prefix", options.name_prefix, "agents are named PREFIX0000, PREFIX0001, ...");
  app.add_option("--key-file", key_file, "the pre-shared key (else IOMARK_KEY)");
  app.add_flag("--insecure", insecure, "no key (the controller must run --insecure too)");
  auto* tls_cert = app.add_option("--tls-cert", tls_files.certificate, "mutual TLS: this side's certificate");
  app.add_option("--tls-key", tls_files.private_key, "mutual TLS: its private key")->needs(tls_cert);
  app.add_option("--tls-ca", tls_files.ca, "mutual TLS: the CA the controller's certificate chains to")->needs(tls_cert);
  app.add_option("--ios-per-second", options.ios_per_second, "synthetic I/Os per second per target");
  app.add_option("--histogram-buckets", options.histogram_buckets, "non-empty latency buckets per target (1..64)");
  app.add_option("--sample-interval-ms", interval_ms, "one sample per agent every this many ms")->check(CLI::Range(10, 60000));
  app.add_option("--drop", options.drop_agents, "this many agents (the last) close their connection mid-run");
  app.add_option("--drop-after-samples", options.drop_after_samples, "... after this many recording samples");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : to_int(ExitCode::usage);
  }
  const auto address = iomark::transport::parse_host_port(controller, iomark::transport::kDefaultPort);
  if (!address) {
    std::fprintf(stderr, "iomark-sim-fleet: --controller: %s\n", address.error().describe().c_str());
    return to_int(ExitCode::usage);
  }
  options.controller = *address;
  options.sample_interval = std::chrono::milliseconds(interval_ms);
  if (!insecure) {
    auto key = iomark::transport::load_key(key_file ? std::optional<std::filesystem::path>(*key_file) : std::nullopt);
    if (!key) {
      std::fprintf(stderr, "iomark-sim-fleet: %s\n", key.error().describe().c_str());
      return to_int(ExitCode::bad_input);
    }
    options.key = std::move(*key);
  }
  if (!tls_files.certificate.empty()) {
    auto tls = iomark::transport::TlsCredentials::load(tls_files);
    if (!tls) {
      std::fprintf(stderr, "iomark-sim-fleet: %s\n", tls.error().describe().c_str());
      return to_int(ExitCode::bad_input);
    }
    options.tls = std::move(*tls);
  }
  const auto agents = options.agents;
  const auto started = std::chrono::steady_clock::now();
  auto fleet = iomark::sim_fleet::SimFleet::start(std::move(options));
  if (!fleet) {
    std::fprintf(stderr, "iomark-sim-fleet: %s\n", fleet.error().describe().c_str());
    return to_int(ExitCode::bad_input);
  }
  std::fprintf(stderr, "sim-fleet: %zu agents dialling %s (RLIMIT_NOFILE %llu)\n", agents, controller.c_str(),
               static_cast<unsigned long long>((*fleet)->file_descriptor_limit()));
  const auto stop = stop_signals.request_stop_on();
  const auto established = (*fleet)->wait_established(kEstablishTimeout);
  const auto elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  auto counts = (*fleet)->counts();
  std::fprintf(stderr, "sim-fleet: %zu of %zu agents established in %lld ms, %zu refused\n", counts.connected, agents,
               static_cast<long long>(elapsed_ms), counts.refused);
  for (const auto& refusal : (*fleet)->refusals()) std::fprintf(stderr, "sim-fleet: refused: %s\n", refusal.describe().c_str());
  // Until stopped, or until the controller has let every agent go (its series ended).
  while (!stop.stop_requested() && (*fleet)->counts().connected > 0) std::this_thread::sleep_for(kWatchEvery);
  (*fleet)->stop();
  print_counts("done", (*fleet)->counts());
  if (!established) return to_int(ExitCode::cannot_connect);
  return to_int(ExitCode::ok);
}
