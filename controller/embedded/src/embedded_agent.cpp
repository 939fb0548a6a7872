#include "iomark/common/host_name.hpp"
#include "iomark/controller/embedded_agent.hpp"

#include <memory>
#include <stop_token>
#include <thread>

#include "iomark/agent/agent_service.hpp"
#include "iomark/agent/host_stats.hpp"
#include "iomark/protocol/handshake.hpp"
#include "iomark/transport/in_memory.hpp"

namespace iomark::controller {

namespace {

// Owns the agent's service and thread; destroyed right after the registry closed the link,
// which ends serve() (the stop request covers a service still between messages).
class EmbeddedAgent final : public LinkCompanion {
 public:
  EmbeddedAgent(agent::AgentServiceOptions options, std::unique_ptr<protocol::Connection> agent_end)
      : service_(std::move(options)),
        connection_(std::move(agent_end)),
        thread_([this](std::stop_token stop) { (void)service_.serve(*connection_, stop); }) {}

  ~EmbeddedAgent() override { connection_->close("embedded agent stopped"); }

 private:
  agent::AgentService service_;
  std::unique_ptr<protocol::Connection> connection_;
  std::jthread thread_;  // declared last: stopped and joined first
};

}  // namespace

Result<void> add_embedded_agent(ManagerRegistry& registry, const std::vector<std::string>& allowed_paths) {
  // What the user named on this command line or plan is the scope; a file named there that
  // does not exist yet is created at the size asked.
  auto policy = targets::SafetyPolicy::create(allowed_paths, targets::Destructive::refuse,
                                              targets::MissingPath::allow_new_file);
  if (!policy) return fail(policy.error());
  const auto name = local_host_name();
  const std::string build = "iomark " IOMARK_VERSION;
  auto pair = transport::make_in_memory_pair(
      protocol::make_hello(protocol::Role::agent, build, name, "", protocol::AuthMode::none),
      protocol::make_hello(protocol::Role::controller, build, name, "", protocol::AuthMode::none));
  if (!pair) return fail(pair.error());
  auto agent = std::make_unique<EmbeddedAgent>(agent::AgentServiceOptions{std::move(*policy), std::chrono::seconds(1), name},
                                               std::move(pair->agent_end));
  return registry.adopt(std::move(pair->controller_end), std::move(agent));
}

}  // namespace iomark::controller
