// The agent's side of a controller connection: sends the inventory, then carries out the
// controller's requests — PrepareTargets (test files, with progress), Assignment, and the phase
// commands of one run (docs/iometer-reference.md#one-run) — and pushes one Sample per update interval while I/O runs. Transport-agnostic: it serves any
// protocol::Connection, TCP or in-memory, so the embedded agent and a remote one behave the same.
#pragma once

#include <chrono>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/engine/engine_choice_cache.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/targets/safety_policy.hpp"

namespace iomark::agent {

// What a connection asks of the agent and how it ends, for the program to log (the service
// itself does not log). Called on the thread running serve(); the defaults do nothing.
class ServiceObserver {
 public:
  virtual ~ServiceObserver() = default;
  virtual void assigned(std::uint64_t /*run_id*/, std::size_t /*workers*/, std::size_t /*targets*/,
                        const std::string& /*engine*/) {}
  virtual void preparing(const std::string& /*path*/, Bytes /*size*/) {}
  virtual void prepared(const std::string& /*path*/) {}
  virtual void run_started(std::uint64_t /*run_id*/) {}
  virtual void run_stopped(std::uint64_t /*run_id*/, std::string_view /*how*/) {}
  // A request the agent did not carry out, and why (the controller is told too).
  virtual void refused(std::string_view /*request*/, const Error& /*why*/) {}
};

struct AgentServiceOptions {
  targets::SafetyPolicy policy;  // what this agent may touch (--allow, --allow-destructive)
  std::chrono::milliseconds sample_interval{1000};
  std::string manager_name;  // shown in results; defaults to the host name
  ServiceObserver* observer{nullptr};  // not owned; must outlive the service; null: nobody is told
};

class AgentService {
 public:
  // Probes the I/O engines once: every connection's inventory reports that probe.
  explicit AgentService(AgentServiceOptions options);

  // Serves one established connection until it closes or `stop` is requested, one request at
  // a time. A run still going when the connection ends is stopped (all I/O within about a
  // second) and its results discarded. Returns why the connection ended.
  Error serve(protocol::Connection& connection, std::stop_token stop = {});

 private:
  AgentServiceOptions options_;
  // What the engines can do does not change while the agent runs, and probing costs tens of
  // milliseconds (destroying a linux-aio context waits for the kernel), so it is done once.
  std::vector<engine::EngineProbe> engines_;
  // `auto`'s engine choices per target and depth, measured at the first run that needs one
  // and reused by every later run and connection (a series measures each once). Behind a
  // pointer so the service stays movable.
  std::unique_ptr<engine::EngineChoiceCache> engine_choices_;
};

}  // namespace iomark::agent
