// The agent's handling of what a controller sends (agent/service, AgentService::serve): the
// input is the frames of one controller session, played to the agent through a scripted
// connection. The agent must answer or refuse each request and never crash, hang or leak,
// and everything it sends must pass the controller's decoder.
//
// The agent runs with a safety policy that allows nothing. That still lets a controller have
// iobw.tst test files made in any directory (as IOmeter's dynamo does), so every path is put
// inside a private temporary directory first, paths with ".." are refused, and test files are
// kept small; the engine is always `null`, so no run does real I/O.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "fuzz_support.hpp"
#include "iomark/agent/agent_service.hpp"
#include "iomark/targets/target.hpp"

namespace {

using namespace iomark;
using namespace iomark::protocol;

constexpr std::uint64_t kMaxTestFileBytes = 64 * 1024;
constexpr std::uint64_t kMaxSectors = 64;

// The directory every path of the session lives in; removed when the process exits.
class Sandbox {
 public:
  Sandbox() {
    std::string pattern = (std::filesystem::temp_directory_path() / "iomark-fuzz-agent.XXXXXX").string();
    fuzz::require(::mkdtemp(pattern.data()) != nullptr, "a temporary directory for the agent");
    path_ = pattern;
  }
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;
  ~Sandbox() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  static Sandbox& instance() {
    static Sandbox sandbox;
    return sandbox;
  }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }

  // `path` (absolute, as the decoder checked) inside the sandbox; a path that could climb out
  // of it names something that does not exist.
  [[nodiscard]] std::string confine(const std::string& path) const {
    for (std::size_t at = 0; (at = path.find("..", at)) != std::string::npos; at += 2) {
      const bool starts = at == 0 || path[at - 1] == '/';
      const bool ends = at + 2 == path.size() || path[at + 2] == '/';
      if (starts && ends) return path_ + "/refused";
    }
    return path_ + path;
  }

  // Each input starts from an empty sandbox.
  void clear() const {
    std::error_code ignored;
    std::filesystem::remove(std::filesystem::path(path_) / targets::kTestFileName, ignored);
  }

 private:
  std::string path_;
};

void confine(Envelope& envelope, const Sandbox& sandbox) {
  if (auto* assignment = std::get_if<Assignment>(&envelope.message)) {
    assignment->engine = "null";
    for (auto& worker : assignment->workers) {
      for (auto& target : worker.targets) {
        target.path = sandbox.confine(target.path);
        target.starting_sector = std::min(target.starting_sector, kMaxSectors);
        target.maximum_size_sectors = std::min(target.maximum_size_sectors, kMaxSectors);
      }
    }
  } else if (auto* prepare = std::get_if<PrepareTargets>(&envelope.message)) {
    for (auto& target : prepare->targets) {
      target.path = sandbox.confine(target.path);
      // 0 asks for the whole file system.
      target.size_bytes = target.size_bytes == 0 ? kMaxTestFileBytes : std::min(target.size_bytes, kMaxTestFileBytes);
    }
  }
}

PeerInfo controller_peer() {
  return PeerInfo{Role::controller, "fuzz-controller", "", "in-process", "iomark fuzz", 1, AuthMode::none, std::nullopt};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& sandbox = Sandbox::instance();
  sandbox.clear();
  auto script = fuzz::envelopes_in(fuzz::bytes_of(data, size));
  for (auto& envelope : script) confine(envelope, sandbox);
  fuzz::ScriptedConnection connection(controller_peer(), std::move(script));
  // One service for every input, as one agent serves one controller after another.
  static agent::AgentService service({targets::SafetyPolicy{}, std::chrono::milliseconds(1), "fuzz-agent"});
  const auto ended = service.serve(connection);
  fuzz::require(ended.code() == ErrorCode::io_error, "the session ends when the controller goes: " + ended.describe());
  fuzz::require(connection.sent() >= 1, "the agent sends its inventory first");
  return 0;
}
