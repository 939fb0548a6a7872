// iomark-agent: the load generator ("dynamo"). main() only wires the commands together.
#include <CLI/CLI.hpp>

#include "run_local.hpp"
#include "serve.hpp"

int main(int argc, char** argv) {
  CLI::App app{"iomark-agent: the load generator of iomark (IOmeter's dynamo)"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "iomark-agent " IOMARK_VERSION);
  // The service reads its options from /etc/iomark/agent.conf; flags on the command line win.
  app.set_config("--config", "", "Read options from FILE: one `name = value` a line (long option names)");
  app.allow_config_extras(CLI::config_extras_mode::error);  // a misspelt name is an error, not ignored
  int exit_code = 0;

  // Daemon mode, with dynamo's habits: -i controller, -m own address, -n manager name.
  iomark::agent_app::ServeOptions serve;
  app.add_option("--protocol", serve.protocol, "Wire protocol: iomark, or iometer (an IOmeter 1.1.0 GUI at -i drives this agent)")
      ->check(CLI::IsMember({"iomark", "iometer"}));
  app.add_option("-i,--controller", serve.controller, "Controller to log in to: HOST[:PORT]");
  app.add_option("-p,--port", serve.port, "The controller's port when -i names none (default 1066)");
  app.add_option("-m,--address", serve.own_address, "This agent's address, as the controller should show it");
  app.add_option("-n,--name", serve.name, "Manager name (default: host name)");
  app.add_option("--listen", serve.listen, "Wait for a controller on [ADDR:]PORT instead of dialling one");
  app.add_option("--key-file", serve.key_file, "Pre-shared key file (or IOMARK_KEY)");
  app.add_flag("--insecure", serve.insecure, "No authentication (the controller must say so too)");
  app.add_option("--tls-cert", serve.tls_cert, "TLS: this agent's certificate (PEM; with --tls-key and --tls-ca)");
  app.add_option("--tls-key", serve.tls_key, "TLS: the private key of --tls-cert (PEM, chmod 600)");
  app.add_option("--tls-ca", serve.tls_ca, "TLS: the CA certificate the controller's certificate must be signed by");
  app.add_option("--allow", serve.allow, "A device, file or directory the controller may use (repeatable)");
  app.add_flag("--allow-destructive", serve.allow_destructive,
               "Allow writing to block devices that are mounted, partitioned or formatted");

  iomark::agent_app::RunLocalOptions local;
  auto* run_local = app.add_subcommand("run-local", "Run one test on this host, without a controller");
  run_local->add_option("--target", local.targets, "Block device, file, or directory (iobw.tst is made there)")
      ->required();
  auto* spec = run_local->add_option("--spec", local.spec_name, "Built-in access spec (see `iomark specs list`)");
  auto* line = run_local->add_option("--spec-line", local.spec_line,
                                     "One spec line: size,%size,%read,%random,delay,burst,align,reply");
  spec->excludes(line);
  line->excludes(spec);
  run_local->add_option("--qd", local.queue_depth, "Outstanding I/Os per target per worker")
      ->check(CLI::Range(1, 65536));
  run_local->add_option("--workers", local.workers, "Workers (threads), each driving every target")
      ->check(CLI::Range(1, 1024));
  run_local->add_option("--ramp", local.ramp_s, "Ramp-up seconds (I/O runs, nothing is recorded)");
  run_local->add_option("--time", local.time_s, "Recorded seconds")->check(CLI::Range(1, 31'536'000));
  run_local->add_option("--engine", local.engine, "auto, io_uring, libaio, threadpool, sync or null");
  run_local->add_option("--seed", local.seed, "Fixed seed: the same offsets every run");
  run_local->add_option("--size", local.test_file_size, "Size of iobw.tst made in a directory target (e.g. 4G)");
  run_local->add_option("--data-pattern", local.data_pattern, "Data written: repeating, pseudo-random, full-random")
      ->check(CLI::IsMember({"repeating", "pseudo-random", "full-random"}));
  run_local->add_option("--cpus", local.cpus, "CPUs to pin workers to, in order (default: worker i on CPU i)")
      ->delimiter(',');
  run_local->add_flag("--buffered-io", local.buffered, "Use the page cache where O_DIRECT is refused");
  run_local->add_flag("--allow-destructive", local.allow_destructive,
                      "Allow writing to block devices that are mounted, partitioned or formatted");
  run_local->add_option("--results", local.results_csv, "Append an IOmeter 1.1.0 results block to this CSV");
  run_local->add_option("--json", local.results_json, "Write iomark JSON results to this file");
  run_local->callback([&] { exit_code = iomark::agent_app::run_local(local); });

  app.callback([&] {
    if (app.get_subcommands().empty()) exit_code = iomark::agent_app::serve(serve);
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& success) {
    return app.exit(success);
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return 2;
  }
  return exit_code;
}
