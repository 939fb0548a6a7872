#include "iomark/network/network_worker.hpp"

#include <time.h>

#include <chrono>
#include <cstring>

#include "iomark/common/io_clock.hpp"

namespace iomark::network {

namespace {

constexpr std::uint64_t kSleepStepNs = 50'000'000;

}  // namespace

Result<std::unique_ptr<NetworkWorker>> NetworkWorker::create(NetworkWorkerOptions options) {
  const auto end = options.endpoint.role == protocol::NetworkRole::server ? PairEnd::server : PairEnd::client;
  auto sequence = TransferSequence::create(options.spec, end, options.seed);
  if (!sequence) return fail(Error(sequence.error().code(), "network worker \"" + options.name + "\": " +
                                                               sequence.error().describe()));
  Socket listener;
  std::optional<std::uint16_t> port;
  if (end == PairEnd::server) {
    auto listening = listen_on(options.endpoint.local_address);
    if (!listening) {
      return fail(Error(listening.error().code(), "network worker \"" + options.name + "\": " +
                                                      listening.error().message()));
    }
    auto bound = local_port(*listening);
    if (!bound) return fail(bound.error());
    listener = std::move(*listening);
    port = *bound;
  }
  return std::unique_ptr<NetworkWorker>(
      new NetworkWorker(std::move(options), std::move(*sequence), std::move(listener), port));
}

NetworkWorker::NetworkWorker(NetworkWorkerOptions options, TransferSequence sequence, Socket listener,
                             std::optional<std::uint16_t> port)
    : options_(std::move(options)),
      sequence_(std::move(sequence)),
      schedule_(options_.test_connection_rate, options_.transactions_per_connection),
      listener_(std::move(listener)),
      port_(port),
      buffer_(std::max<std::size_t>(sequence_.max_transfer_bytes(), 1), std::byte{0x5A}),
      stopping_([this] { return stopping(); }) {}

NetworkWorker::~NetworkWorker() { stop(); }

Result<void> NetworkWorker::start() {
  if (options_.endpoint.role == protocol::NetworkRole::client && options_.endpoint.peer_port == 0) {
    return fail(ErrorCode::invalid_argument,
                "network worker \"" + options_.name + "\": the server's port was never given");
  }
  thread_ = std::thread([this] { run(); });
  return {};
}

void NetworkWorker::record_on() noexcept { record_on_ns_.store(monotonic_now_ns(), std::memory_order_release); }
void NetworkWorker::record_off() noexcept { record_off_ns_.store(monotonic_now_ns(), std::memory_order_release); }

void NetworkWorker::stop() {
  stop_requested_.store(true, std::memory_order_release);
  if (thread_.joinable()) thread_.join();
  connection_.close();
  listener_.close();
}

bool NetworkWorker::recording_at(std::uint64_t at_ns) const noexcept {
  const auto on = record_on_ns_.load(std::memory_order_acquire);
  return on != 0 && on <= at_ns && record_off_ns_.load(std::memory_order_acquire) == 0;
}

void NetworkWorker::run() noexcept {
  while (!stopping()) {
    publish_if_requested();
    bool ok = true;
    switch (schedule_.next()) {
      case ConnectionStep::open: ok = open_connection(); break;
      case ConnectionStep::transfer: ok = transact(); break;
      case ConnectionStep::close: {
        if (options_.endpoint.role == protocol::NetworkRole::client) {
          close_after_peer(connection_, stopping_);
        } else {
          connection_.close();
        }
        schedule_.closed();
        const auto closed = monotonic_now_ns();
        if (connection_counted_ && recording_at(closed)) counters_.connections.add(closed - connection_opened_ns_);
        break;
      }
    }
    if (!ok) break;
  }
  snapshot_requested_.store(true, std::memory_order_release);
  publish_if_requested();
}

bool NetworkWorker::open_connection() {
  const auto& endpoint = options_.endpoint;
  connection_opened_ns_ = monotonic_now_ns();
  connection_counted_ = recording_at(connection_opened_ns_);
  Result<Socket> opened = Socket();
  if (endpoint.role == protocol::NetworkRole::server) {
    auto expected = make_preamble(endpoint.pair_secret, endpoint.peer_address, *port_);
    if (!expected) return fail_with(expected.error().message()), false;
    opened = accept_peer(listener_, endpoint.peer_address, *expected, stopping_, refused_);
  } else {
    auto preamble = make_preamble(endpoint.pair_secret, endpoint.local_address,
                                  static_cast<std::uint16_t>(endpoint.peer_port));
    if (!preamble) return fail_with(preamble.error().message()), false;
    opened = connect_peer(endpoint.local_address, endpoint.peer_address,
                          static_cast<std::uint16_t>(endpoint.peer_port), *preamble, stopping_);
  }
  if (!opened) {
    // After record_off the peer's agent may have stopped its worker first and closed (or
    // reset, with this connection still in its backlog) the listening socket.
    if (!peer_may_have_stopped()) fail_with(opened.error().message());
    return false;
  }
  if (!opened->is_open()) return false;  // stopped
  connection_ = std::move(*opened);
  schedule_.opened();
  return true;
}

bool NetworkWorker::transact() {
  const auto transaction = sequence_.next();
  if (transaction.delay_ms > 0) {
    const std::uint64_t resume = monotonic_now_ns() + std::uint64_t{transaction.delay_ms} * 1000000U;
    for (auto now = monotonic_now_ns(); now < resume && !stopping(); now = monotonic_now_ns()) {
      const auto step = std::min<std::uint64_t>(resume - now, kSleepStepNs);
      const timespec pause{0, static_cast<long>(step)};
      ::nanosleep(&pause, nullptr);
      publish_if_requested();
    }
  }
  const auto started = monotonic_now_ns();
  const bool counted = recording_at(started);
  if (!transfer(transaction.request)) return false;
  if (transaction.reply_bytes != 0 && !transfer(transaction.reply())) return false;
  if (counted) counters_.transactions.add(monotonic_now_ns() - started);
  schedule_.transferred();
  return true;
}

bool NetworkWorker::transfer(const PlannedTransfer& planned) {
  const auto issued = monotonic_now_ns();
  const bool counted = recording_at(issued);
  std::span<std::byte> bytes(buffer_.data(), planned.bytes);
  const auto status = planned.action == Transfer::send ? send_all(connection_, bytes, stopping_)
                                                       : receive_all(connection_, bytes, stopping_);
  const auto completed = monotonic_now_ns();
  switch (status.outcome) {
    case TransferOutcome::done:
      if (counted) {
        if (planned.counts_as_read) {
          counters_.record_read(planned.bytes, completed - issued);
        } else {
          counters_.record_write(planned.bytes, completed - issued);
        }
      }
      return true;
    case TransferOutcome::stopped: return false;
    case TransferOutcome::peer_closed:
    case TransferOutcome::stalled:
      if (peer_may_have_stopped()) return false;
      if (status.outcome == TransferOutcome::peer_closed) {
        fail_with("the peer " + options_.endpoint.peer_address + " closed the connection mid-run");
        return false;
      }
      fail_with("no data moved to or from the peer " + options_.endpoint.peer_address + " for " +
                std::to_string(kStallLimit.count()) + " s");
      return false;
    case TransferOutcome::failed:
      if (peer_may_have_stopped()) return false;
      if (counted) ++(planned.counts_as_read ? counters_.read_errors : counters_.write_errors);
      fail_with(std::string("transfer with ") + options_.endpoint.peer_address + " failed: " +
                std::strerror(status.error_number));
      return false;
  }
  return false;
}

// After record_off the other end may simply have stopped first: this end then idles until
// its own stop instead of reporting the peer's absence as a failure.
bool NetworkWorker::peer_may_have_stopped() noexcept {
  if (record_off_ns_.load(std::memory_order_acquire) == 0) return false;
  while (!stopping()) {
    const timespec pause{0, static_cast<long>(kSleepStepNs)};
    ::nanosleep(&pause, nullptr);
    publish_if_requested();
  }
  return true;
}

void NetworkWorker::fail_with(const std::string& what) {
  failure_ = Error(ErrorCode::io_error, "network worker \"" + options_.name + "\", target " + options_.endpoint.label +
                                            ": " + what);
  failed_.store(true, std::memory_order_release);
}

void NetworkWorker::publish_if_requested() noexcept {
  if (!snapshot_requested_.load(std::memory_order_relaxed) ||
      !snapshot_requested_.exchange(false, std::memory_order_acquire)) {
    return;
  }
  const auto on = record_on_ns_.load(std::memory_order_acquire);
  const auto off = record_off_ns_.load(std::memory_order_acquire);
  const auto end = off != 0 ? off : monotonic_now_ns();
  {
    std::lock_guard lock(published_mutex_);
    published_.window = Nanoseconds(on != 0 && end > on ? static_cast<std::int64_t>(end - on) : 0);
    published_.counters = counters_;
    published_.refused_connections = refused_;
  }
  snapshot_sequence_.fetch_add(1, std::memory_order_release);
}

NetworkWorkerResults NetworkWorker::snapshot() {
  if (thread_.joinable() && !failed()) {
    const auto before = snapshot_sequence_.load(std::memory_order_acquire);
    snapshot_requested_.store(true, std::memory_order_release);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (snapshot_sequence_.load(std::memory_order_acquire) == before && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  std::lock_guard lock(published_mutex_);
  return published_;
}

NetworkWorkerResults NetworkWorker::results() const {
  std::lock_guard lock(published_mutex_);
  return published_;
}

std::optional<Error> NetworkWorker::failure() const {
  if (!failed()) return std::nullopt;
  return failure_;
}

}  // namespace iomark::network
