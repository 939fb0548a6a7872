#include "legacy_fake_gui.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "iomark/legacy/test_spec.hpp"

extern char** environ;

namespace iomark::test {

namespace {

using legacy::Purpose;
using std::chrono::steady_clock;

constexpr auto kRestOfBlock = std::chrono::seconds(5);

steady_clock::time_point in(std::chrono::seconds wait) { return steady_clock::now() + wait; }

std::string describe(const legacy::Message& message) {
  const auto name = legacy::to_string(message.purpose);
  return (name.empty() ? "purpose " + std::to_string(static_cast<std::int32_t>(message.purpose)) : std::string(name)) +
         " " + std::to_string(message.data);
}

}  // namespace

Result<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& argv, const std::filesystem::path& log,
                                         const std::vector<std::string>& env) {
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  environment.insert(environment.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int status = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (status != 0) return fail(ErrorCode::io_error, "spawn " + argv[0] + ": " + std::strerror(status));
  return ChildProcess(pid);
}

ChildProcess::~ChildProcess() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

void ChildProcess::signal(int signal_number) const {
  if (pid_ > 0) ::kill(pid_, signal_number);
}

std::optional<int> ChildProcess::wait_exit(std::chrono::milliseconds wait) {
  const auto until = steady_clock::now() + wait;
  while (pid_ > 0) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    if (steady_clock::now() >= until) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return std::nullopt;
}

Result<FakeGui> FakeGui::listen() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 4) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    if (fd >= 0) ::close(fd);
    return fail(ErrorCode::io_error, std::string("fake GUI listen: ") + std::strerror(errno));
  }
  return FakeGui(fd, ntohs(address.sin_port));
}

FakeGui::FakeGui(FakeGui&& other) noexcept
    : listen_fd_(other.listen_fd_),
      port_(other.port_),
      login_(std::move(other.login_)),
      channel_(std::move(other.channel_)),
      transcript_(std::move(other.transcript_)) {
  other.listen_fd_ = -1;
}

FakeGui::~FakeGui() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

void FakeGui::note(const std::string& who, const legacy::Message& message) {
  transcript_.push_back(who + ": " + describe(message));
}

Result<legacy::ManagerInfo> FakeGui::accept_login(LoginAnswer answer) {
  pollfd entry{listen_fd_, POLLIN, 0};
  if (::poll(&entry, 1, static_cast<int>(std::chrono::milliseconds(kReceiveDeadline).count())) != 1) {
    return fail(ErrorCode::io_error, "no login within the deadline");
  }
  login_ = transport::LegacySocket(::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC));
  std::array<std::byte, legacy::kMessageBytes> bytes{};
  if (auto got = login_.receive_exact(bytes, in(kReceiveDeadline)); !got) {
    return tl::unexpected(got.error());
  }
  auto login = legacy::decode_message(bytes);
  if (!login) return tl::unexpected(login.error());
  note("agent", *login);
  auto block = legacy::make_data_block();
  if (auto got = login_.receive_exact(block, in(kReceiveDeadline)); !got) {
    return tl::unexpected(got.error());
  }
  transcript_.push_back("agent: block " + std::to_string(block.size()));
  if (auto checked = legacy::check_login(*login); !checked) return tl::unexpected(checked.error());
  auto info = legacy::decode_manager_info(block);
  if (!info) return tl::unexpected(info.error());
  const legacy::Message reply = answer == LoginAnswer::login_ok
                                    ? legacy::Message{Purpose::login, legacy::kLoginOkData}
                                    : legacy::Message{Purpose::login, static_cast<std::int32_t>(Purpose::wrong_version)};
  note("gui", reply);
  const auto reply_bytes = legacy::encode_message(reply);
  if (auto sent = login_.send_all(reply_bytes, in(kRestOfBlock)); !sent) return tl::unexpected(sent.error());
  if (answer == LoginAnswer::wrong_version) return *info;
  // Dynamo listens on its command port only after LOGIN_OK: connect() retries, as IOmeter does.
  auto channel = transport::LegacySocket::connect("127.0.0.1", info->command_port, in(kReceiveDeadline));
  if (!channel) return tl::unexpected(channel.error());
  channel_ = std::move(*channel);
  return *info;
}

Result<void> FakeGui::send(Purpose purpose, std::int32_t data) {
  note("gui", {purpose, data});
  const auto bytes = legacy::encode_message({purpose, data});
  return channel_.send_all(bytes, in(kRestOfBlock));
}

Result<void> FakeGui::send_block(const legacy::DataBlock& block) {
  transcript_.push_back("gui: block " + std::to_string(block.size()));
  return channel_.send_all(block, in(kRestOfBlock));
}

Result<void> FakeGui::send_raw(std::span<const std::byte> bytes) { return channel_.send_all(bytes, in(kRestOfBlock)); }

Result<legacy::Message> FakeGui::receive() {
  std::array<std::byte, legacy::kMessageBytes> bytes{};
  if (auto got = channel_.receive_exact(bytes, in(kReceiveDeadline)); !got) {
    return tl::unexpected(got.error());
  }
  auto message = legacy::decode_message(bytes);
  if (message) note("agent", *message);
  return message;
}

Result<legacy::DataBlock> FakeGui::receive_block() {
  auto block = legacy::make_data_block();
  if (auto got = channel_.receive_exact(block, in(kReceiveDeadline)); !got) {
    return tl::unexpected(got.error());
  }
  transcript_.push_back("agent: block " + std::to_string(block.size()));
  return block;
}

bool FakeGui::channel_closed_within(std::chrono::milliseconds wait) {
  const auto until = steady_clock::now() + wait;
  std::array<std::byte, 4096> sink{};
  while (steady_clock::now() < until) {
    auto got = channel_.receive_exact(std::span(sink).first(1), until);
    if (!got) return got.error().describe().find("closed") != std::string::npos;
  }
  return false;
}

std::string_view to_string(GuiShape shape) noexcept {
  switch (shape) {
    case GuiShape::iometer_1_1_0: return "IOmeter 1.1.0";
    case GuiShape::zero_filled: return "zero-filled";
    case GuiShape::garbage: return "garbage";
  }
  return "?";
}

namespace {

void put_le(std::span<std::byte> block, std::size_t offset, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) block[offset + i] = static_cast<std::byte>((value >> (8 * i)) & 0xFF);
}

std::uint64_t get_le(std::span<const std::byte> block, std::size_t offset, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value |= std::to_integer<std::uint64_t>(block[offset + i]) << (8 * i);
  return value;
}

// Bytes the GUI never wrote: 0xCD (MSVC's fill for `new`), zeros, or pseudo-random garbage
// (a fixed xorshift stream, so a failure repeats).
void fill_unset(std::span<std::byte> bytes, GuiShape shape) {
  switch (shape) {
    case GuiShape::iometer_1_1_0: std::fill(bytes.begin(), bytes.end(), std::byte{0xCD}); return;
    case GuiShape::zero_filled: std::fill(bytes.begin(), bytes.end(), std::byte{0}); return;
    case GuiShape::garbage: {
      std::uint64_t state = 0x9E3779B97F4A7C15ULL;
      for (auto& byte : bytes) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        byte = static_cast<std::byte>(state >> 32);
      }
      return;
    }
  }
}

}  // namespace

legacy::DataBlock gui_target_block(std::span<const std::byte> reported, std::size_t index,
                                   const GuiWorkerSettings& worker, GuiShape shape) {
  namespace layout = legacy::target_spec_layout;
  namespace disk = legacy::disk_spec_layout;
  legacy::DataBlock block(legacy::kDataMessageBytes);
  fill_unset(block, shape);
  put_le(block, legacy::kDataCountOffset, 1, 4);
  const std::size_t base = legacy::kDataUnionOffset;
  // Worker::AddTarget: memcpy of the reported Target_Spec ...
  std::copy_n(reported.begin() + static_cast<std::ptrdiff_t>(legacy::kDataUnionOffset + index * layout::kBytes),
              layout::kBytes, block.begin() + static_cast<std::ptrdiff_t>(base));
  // ... then the worker's defaults over it, its whole Disk_Spec among them.
  put_le(block, base + layout::kQueueDepth, worker.queue_depth, 4);
  put_le(block, base + layout::kTestConnectionRate, 0, 4);
  put_le(block, base + layout::kTransactionsPerConnection, 1, 4);
  std::fill_n(block.begin() + static_cast<std::ptrdiff_t>(base + layout::kDetails), disk::kBytes, std::byte{0});
  put_le(block, base + layout::kDetails + disk::kMaximumSize, worker.maximum_size_sectors, 8);
  put_le(block, base + layout::kDetails + disk::kStartingSector, worker.starting_sector, 8);
  put_le(block, base + layout::kDataPattern, static_cast<std::uint32_t>(worker.data_pattern), 4);
  // Worker::SetTargets: the seed goes into `random`; fixed_seed_value stays what was reported.
  put_le(block, base + layout::kUseFixedSeed, worker.use_fixed_seed ? 1 : 0, 4);
  put_le(block, base + layout::kRandom, worker.use_fixed_seed ? worker.fixed_seed_value : worker.timestamp, 8);
  // ManagerList marks the targets of the test active.
  put_le(block, base + layout::kType, get_le(block, base + layout::kType, 4) | legacy::target_type::kActive, 4);
  return block;
}

legacy::DataBlock gui_spec_block(const access_specs::AccessSpec& spec, GuiShape shape) {
  namespace layout = legacy::test_spec_layout;
  namespace line_layout = legacy::access_spec_layout;
  legacy::DataBlock block(legacy::kDataMessageBytes);
  fill_unset(block, shape);
  const std::size_t base = legacy::kDataUnionOffset;
  std::copy_n(reinterpret_cast<const std::byte*>(spec.name.c_str()), spec.name.size() + 1,
              block.begin() + static_cast<std::ptrdiff_t>(base + layout::kName));
  put_le(block, base + layout::kDefaultAssignment, static_cast<std::uint32_t>(spec.default_assignment), 4);
  const auto line_at = [&](std::size_t i) { return base + layout::kAccess + i * line_layout::kBytes; };
  for (std::size_t i = 0; i < spec.lines.size(); ++i) {
    const auto& line = spec.lines[i];
    put_le(block, line_at(i) + line_layout::kOfSize, line.percent_of_size, 4);
    put_le(block, line_at(i) + line_layout::kReads, line.percent_reads, 4);
    put_le(block, line_at(i) + line_layout::kRandom, line.percent_random, 4);
    put_le(block, line_at(i) + line_layout::kDelay, line.delay_ms, 4);
    put_le(block, line_at(i) + line_layout::kBurst, line.burst_transactions, 4);
    put_le(block, line_at(i) + line_layout::kAlign, line.align_bytes, 4);
    put_le(block, line_at(i) + line_layout::kReply, line.reply_bytes, 4);
    put_le(block, line_at(i) + line_layout::kSize, line.size_bytes, 4);
  }
  if (spec.lines.size() < legacy::kMaxSpecLines && shape == GuiShape::iometer_1_1_0) {
    put_le(block, line_at(spec.lines.size()) + line_layout::kOfSize, 0xFFFFFFFFU, 4);  // IOERROR ends the list
  }
  return block;
}

void FakeGui::close_channel() {
  transcript_.push_back("gui: close");
  channel_ = transport::LegacySocket();
  login_ = transport::LegacySocket();
}

namespace {

Result<legacy::Message> expect_reply(FakeGui& gui, Purpose purpose) {
  auto reply = gui.receive();
  if (!reply) return reply;
  if (reply->purpose != purpose) {
    return fail(ErrorCode::validation_error, "expected a " + std::string(legacy::to_string(purpose)) + " reply, got " +
                                                 describe(*reply));
  }
  return reply;
}

// Sends a command and reads `blocks` data blocks back.
Result<std::vector<legacy::DataBlock>> ask_blocks(FakeGui& gui, Purpose purpose, std::int32_t data, std::size_t blocks) {
  if (auto sent = gui.send(purpose, data); !sent) return tl::unexpected(sent.error());
  std::vector<legacy::DataBlock> received;
  for (std::size_t i = 0; i < blocks; ++i) {
    auto block = gui.receive_block();
    if (!block) return tl::unexpected(block.error());
    received.push_back(std::move(*block));
  }
  return received;
}

Result<std::int32_t> ask(FakeGui& gui, Purpose purpose, std::int32_t data) {
  if (auto sent = gui.send(purpose, data); !sent) return tl::unexpected(sent.error());
  auto reply = expect_reply(gui, purpose);
  if (!reply) return tl::unexpected(reply.error());
  return reply->data;
}

Result<void> expect_ok(Result<std::int32_t> data, std::string_view what) {
  if (!data) return tl::unexpected(data.error());
  if (*data != 1) return fail(ErrorCode::validation_error, std::string(what) + " answered " + std::to_string(*data));
  return {};
}

}  // namespace

Result<AssignedPlan> assign_plan(FakeGui& gui, const Plan& plan) {
  auto info = gui.accept_login();
  if (!info) return tl::unexpected(info.error());

  auto lists = ask_blocks(gui, Purpose::report_targets, legacy::kManager, 3);
  if (!lists) return tl::unexpected(lists.error());
  auto disks = legacy::decode_target_list((*lists)[0], legacy::TargetListUse::discovery);
  if (!disks) return tl::unexpected(disks.error());
  const std::string logical = plan.target + " [";
  const auto disk = std::find_if(disks->begin(), disks->end(),
                                 [&](const auto& t) { return t.name == plan.target || t.name.starts_with(logical); });
  if (disk == disks->end()) return fail(ErrorCode::not_found, "REPORT_TARGETS did not list " + plan.target);

  auto workers = ask(gui, Purpose::add_workers, 1);
  if (auto ok = expect_ok(workers, "ADD_WORKERS 1"); !ok) return tl::unexpected(ok.error());

  access_specs::AccessSpec spec;
  spec.name = "plan";
  spec.lines.push_back(plan.line);
  auto spec_block = legacy::encode_test_spec(spec);
  if (!spec_block) return tl::unexpected(spec_block.error());
  if (auto sent = gui.send(Purpose::set_access, 0); !sent) return tl::unexpected(sent.error());
  if (auto sent = gui.send_block(*spec_block); !sent) return tl::unexpected(sent.error());
  if (auto ok = expect_ok([&]() -> Result<std::int32_t> {
        auto reply = expect_reply(gui, Purpose::set_access);
        if (!reply) return tl::unexpected(reply.error());
        return reply->data;
      }(), "SET_ACCESS"); !ok) {
    return tl::unexpected(ok.error());
  }

  legacy::TargetSpec target = *disk;
  target.type |= legacy::target_type::kActive;
  target.queue_depth = plan.queue_depth;
  auto& details = std::get<legacy::DiskDetails>(target.details);
  details.starting_sector = 0;
  details.maximum_size_sectors = legacy::is_type(target.type, legacy::target_type::kLogicalDisk)
                                     ? plan.test_file_bytes / details.sector_size
                                     : 0;  // the whole device
  auto target_block = legacy::encode_target_list(std::span(&target, 1));
  if (!target_block) return tl::unexpected(target_block.error());
  if (auto sent = gui.send(Purpose::set_targets, 0); !sent) return tl::unexpected(sent.error());
  if (auto sent = gui.send_block(*target_block); !sent) return tl::unexpected(sent.error());
  auto set = expect_reply(gui, Purpose::set_targets);
  if (!set) return tl::unexpected(set.error());
  if (set->data != 1) return fail(ErrorCode::validation_error, "SET_TARGETS answered " + std::to_string(set->data));
  if (auto echo = gui.receive_block(); !echo) return tl::unexpected(echo.error());
  return AssignedPlan{*info, target};
}

Result<PlanOutcome> run_plan(FakeGui& gui, const Plan& plan) {
  auto assigned = assign_plan(gui, plan);
  if (!assigned) return tl::unexpected(assigned.error());
  PlanOutcome outcome;
  outcome.timer_resolution_hz = assigned->info.timer_resolution_hz;
  if (!std::get<legacy::DiskDetails>(assigned->target.details).ready) {
    if (auto ok = expect_ok(ask(gui, Purpose::prep_disks, legacy::kAllWorkers), "PREP_DISKS"); !ok) {
      return tl::unexpected(ok.error());
    }
  }
  if (auto ok = expect_ok(ask(gui, Purpose::start, legacy::kAllWorkers), "START"); !ok) return tl::unexpected(ok.error());
  if (auto ok = expect_ok(ask(gui, Purpose::begin_io, legacy::kAllWorkers), "BEGIN_IO"); !ok) {
    return tl::unexpected(ok.error());
  }
  std::this_thread::sleep_for(plan.ramp);
  if (auto sent = gui.send(Purpose::record_on, legacy::kAllWorkers); !sent) return tl::unexpected(sent.error());
  std::this_thread::sleep_for(plan.record / 2);
  auto update = ask_blocks(gui, Purpose::report_update, legacy::kManager, 2);
  if (!update) return tl::unexpected(update.error());
  auto update_results = legacy::decode_worker_results((*update)[1]);
  if (!update_results) return tl::unexpected(update_results.error());
  outcome.update = *update_results;
  std::this_thread::sleep_for(plan.record - plan.record / 2);
  if (auto off = ask(gui, Purpose::record_off, legacy::kAllWorkers); !off) return tl::unexpected(off.error());
  if (auto stop = ask(gui, Purpose::stop, legacy::kAllWorkers); !stop) return tl::unexpected(stop.error());
  auto final_blocks = ask_blocks(gui, Purpose::report_results, legacy::kManager, 2);
  if (!final_blocks) return tl::unexpected(final_blocks.error());
  if (auto manager = legacy::decode_manager_results((*final_blocks)[0]); !manager) return tl::unexpected(manager.error());
  auto results = legacy::decode_worker_results((*final_blocks)[1]);
  if (!results) return tl::unexpected(results.error());
  outcome.results = *results;
  if (plan.ending == Plan::Ending::close) {
    gui.close_channel();
    return outcome;
  }
  if (auto sent = gui.send(Purpose::exit, legacy::kManager); !sent) return tl::unexpected(sent.error());
  return outcome;
}

}  // namespace iomark::test
