// A stand-in for IOmeter 1.1.0's GUI, built on the legacy codec: it takes a Dynamo-style
// login on 127.0.0.1 (port 0), connects back, sends commands and records every message and
// block both ways, so a test can drive iomark-agent --protocol iometer or the real Dynamo
// with one plan and compare the two conversations. Every receive has a deadline.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"
#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/legacy/wire.hpp"
#include "iomark/transport/legacy_socket.hpp"

namespace iomark::test {

inline constexpr auto kReceiveDeadline = std::chrono::seconds(10);

// A child process (the agent under test); killed by its pid and reaped on destruction.
class ChildProcess {
 public:
  // Runs argv[0] with argv; stdout and stderr go to `log`. Environment: this one plus `env`.
  [[nodiscard]] static Result<ChildProcess> spawn(const std::vector<std::string>& argv, const std::filesystem::path& log,
                                                  const std::vector<std::string>& env = {});
  ChildProcess(ChildProcess&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }
  ChildProcess& operator=(ChildProcess&&) = delete;
  ~ChildProcess();
  // The exit code once it exited within `wait`; nullopt if still running (or killed by a signal: -signal).
  [[nodiscard]] std::optional<int> wait_exit(std::chrono::milliseconds wait);
  // Sends `signal_number` to the child (by its pid), if it still runs.
  void signal(int signal_number) const;

 private:
  explicit ChildProcess(pid_t pid) : pid_(pid) {}
  pid_t pid_{-1};
};

class FakeGui {
 public:
  [[nodiscard]] static Result<FakeGui> listen();
  FakeGui(FakeGui&& other) noexcept;
  FakeGui& operator=(FakeGui&&) = delete;
  ~FakeGui();
  [[nodiscard]] std::uint16_t port() const noexcept { return port_; }

  enum class LoginAnswer : std::uint8_t { login_ok, wrong_version };
  // Takes the LOGIN message and the Manager_Info block, answers, and (LOGIN_OK) connects
  // back to the announced command port on 127.0.0.1, retrying as IOmeter does.
  [[nodiscard]] Result<legacy::ManagerInfo> accept_login(LoginAnswer answer = LoginAnswer::login_ok);

  [[nodiscard]] Result<void> send(legacy::Purpose purpose, std::int32_t data);
  [[nodiscard]] Result<void> send_block(const legacy::DataBlock& block);
  // Raw bytes on the command channel (hostile tests).
  [[nodiscard]] Result<void> send_raw(std::span<const std::byte> bytes);
  [[nodiscard]] Result<legacy::Message> receive();
  [[nodiscard]] Result<legacy::DataBlock> receive_block();
  // Whether the agent closed the command channel within `wait` (reads and drops anything).
  [[nodiscard]] bool channel_closed_within(std::chrono::milliseconds wait);
  // Closes the command channel, as a GUI that quits does.
  void close_channel();

  // "agent: LOGIN 16777472", "agent: block 888840", "gui: SET_TARGETS 0", ... in order.
  [[nodiscard]] const std::vector<std::string>& transcript() const noexcept { return transcript_; }

 private:
  FakeGui(int fd, std::uint16_t port) : listen_fd_(fd), port_(port) {}
  void note(const std::string& who, const legacy::Message& message);
  int listen_fd_{-1};
  std::uint16_t port_{};
  transport::LegacySocket login_;
  transport::LegacySocket channel_;
  std::vector<std::string> transcript_;
};

// What an IOmeter GUI puts in the bytes of a block it does not set (docs/iometer-gui-messages.md).
enum class GuiShape : std::uint8_t {
  // IOmeter 1.1.0: blocks and Test_Specs come from `new` (uninitialised; MSVC's debug heap
  // fills them with 0xCD), the access lines end with of_size -1.
  iometer_1_1_0,
  // An IOmeter-derived GUI that zero-fills: unused lines are zeros, the list ends with a
  // line of of_size 0.
  zero_filled,
  // Unused bytes hold anything (pseudo-random bytes here, -1s and 100s among them): no end
  // marker at all after the lines that make 100 %.
  garbage,
};
[[nodiscard]] std::string_view to_string(GuiShape shape) noexcept;

// A GUI worker's settings, as Worker keeps them in its own Target_Spec (Worker.cpp): its
// Disk_Spec is zeroed but for maximum_size and starting_sector.
struct GuiWorkerSettings {
  std::uint32_t queue_depth{1};
  std::uint64_t maximum_size_sectors{};
  std::uint64_t starting_sector{};
  legacy::DataPattern data_pattern{legacy::DataPattern::repeating_bytes};
  bool use_fixed_seed{false};
  std::uint64_t fixed_seed_value{};
  std::uint64_t timestamp{0x00000A1B2C3D4E5FULL};  // timer_value(), the seed when none is fixed
};

// The SET_TARGETS block Worker::AddTarget + Worker::SetTargets make for entry `index` of the
// reported disk list `reported` (a REPORT_TARGETS block, taken byte for byte): the reported
// entry with the worker's queue depth, seed, connection settings, data pattern and whole
// Disk_Spec over it (sector_size 0, ready 0), the Active bit set, count 1; the rest of the
// block as `shape` leaves it.
[[nodiscard]] legacy::DataBlock gui_target_block(std::span<const std::byte> reported, std::size_t index,
                                                 const GuiWorkerSettings& worker, GuiShape shape);
// The SET_ACCESS block Worker::SetAccess makes of `spec` (its lines as AccessSpecList holds
// them), ending the lines and filling the unused bytes as `shape` does.
[[nodiscard]] legacy::DataBlock gui_spec_block(const access_specs::AccessSpec& spec, GuiShape shape);

// What one full run of a plan gave.
struct PlanOutcome {
  legacy::WorkerResults results;  // REPORT_RESULTS, the worker's block
  legacy::WorkerResults update;   // REPORT_UPDATE while recording
  double timer_resolution_hz{};
};

inline constexpr std::uint32_t kPlanPercentReads = 67;
inline constexpr std::uint32_t kPlanTestFileBytes = 16U << 20;

// One worker on one disk target, one access spec line, one run.
struct Plan {
  std::string target;  // the first listed disk named this, or "<target> [fstype]"
  std::uint32_t queue_depth{4};
  access_specs::AccessSpecLine line{4096, 100, kPlanPercentReads, 100, 0, 1, 4096, 0};
  std::uint64_t test_file_bytes{kPlanTestFileBytes};  // logical disks: the size of iobw.tst
  std::chrono::milliseconds ramp{300};
  std::chrono::milliseconds record{2000};  // REPORT_UPDATE comes halfway
  // How the GUI ends after the results: EXIT MANAGER, or closing the connection.
  enum class Ending : std::uint8_t { exit_manager, close } ending{Ending::exit_manager};
};

struct AssignedPlan {
  legacy::ManagerInfo info;   // from the login
  legacy::TargetSpec target;  // as sent in SET_TARGETS
};

// Logs in, then REPORT_TARGETS, ADD_WORKERS 1, SET_ACCESS and SET_TARGETS of run_plan.
[[nodiscard]] Result<AssignedPlan> assign_plan(FakeGui& gui, const Plan& plan);

// Logs in, then as IOmeter does for one run: REPORT_TARGETS, ADD_WORKERS 1, SET_ACCESS,
// SET_TARGETS (the plan's target with its queue depth and, for a logical disk, test file
// size), PREP_DISKS when the target is not ready, START, BEGIN_IO, RECORD_ON, REPORT_UPDATE,
// RECORD_OFF, STOP, REPORT_RESULTS, EXIT MANAGER. Checks each reply's block count as it goes.
[[nodiscard]] Result<PlanOutcome> run_plan(FakeGui& gui, const Plan& plan);

}  // namespace iomark::test
