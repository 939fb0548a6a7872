// The engine contract (architecture.md): one small batch interface every back end implements.
//
// A worker owns one pinned thread, one engine and a BufferPool with one aligned slot per
// outstanding I/O. Life cycle, all on the worker's side:
//
//   auto engine = make_engine(kind);          // or make_best_engine(options), engines.hpp
//   engine->prepare(options);                  // allocates everything the hot path needs
//   engine->register_targets(fds);             // descriptors the caller opened and keeps open
//   engine->register_buffers({pool.region()}); // optional; failure is not fatal
//   loop: engine->submit(batch); engine->reap(completions, n, timeout);
//
// Hot path: submit() and reap() never allocate, throw or (except in the threadpool engine,
// whose locking is documented in engines.hpp) take a lock. They are not thread-safe: one
// thread at a time drives an engine. Engines never timestamp I/Os (a clock is read at
// most to bound a reap's wait): the worker timestamps before submit and after reap, so
// every engine is measured the same way.
//
// Results are the kernel's own: a short transfer or an error is reported as such, never
// replaced by the requested length (unlike legacy Dynamo,
// docs/iometer-reference.md#fix-aio-timeout).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "iomark/common/outstanding_ios.hpp"
#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/engine/engine_kind.hpp"

namespace iomark::engine {

// Bumped whenever IoEngine's contract changes, so out-of-tree back ends can check it.
inline constexpr std::uint32_t kEngineInterfaceVersion = 1;

enum class IoOp : std::uint8_t { read, write };

// One I/O. The buffer must stay valid and untouched until the request's completion has been
// reaped; with O_DIRECT targets the buffer, offset and length must be aligned to the target's
// logical block size (misalignment completes with what the kernel says, -EINVAL on most
// file systems; it is never a crash).
struct IoRequest {
  std::uint64_t tag{};     // caller's identifier, returned verbatim in the completion
  std::uint32_t target{};  // index into the descriptors given to register_targets
  IoOp op{IoOp::read};
  std::uint64_t offset_bytes{};
  std::uint32_t length_bytes{};
  std::byte* buffer{};
};

struct IoCompletion {
  std::uint64_t tag{};
  // Bytes transferred (possibly fewer than requested, e.g. 0 at end of file), or -errno.
  std::int64_t result{};

  [[nodiscard]] bool failed() const noexcept { return result < 0; }
  friend bool operator==(const IoCompletion&, const IoCompletion&) = default;
};

// A memory range the caller will pass buffers from (BufferPool::region()).
struct BufferRegion {
  std::byte* data{};
  std::size_t size_bytes{};
};

// What an engine does; some flags (registered_files, fixed_buffers) turn on only once the
// corresponding registration succeeded.
enum class Capability : std::uint32_t {
  transfers_data = 1U << 0,       // performs real I/O (every engine but null)
  kernel_async = 1U << 1,         // the kernel runs I/O while the worker carries on
  batched_submit = 1U << 2,       // one syscall submits a whole batch
  completes_in_submit = 1U << 3,  // every accepted request has completed when submit returns
  helper_threads = 1U << 4,       // user-space threads perform the I/O (threadpool)
  registered_files = 1U << 5,     // targets are registered with the kernel (io_uring)
  fixed_buffers = 1U << 6,        // buffers in registered regions use fixed-buffer I/O
  submission_polling = 1U << 7,   // a kernel thread polls the submission queue (SQPOLL)
  single_issuer = 1U << 8,        // io_uring: SINGLE_ISSUER | DEFER_TASKRUN took effect
  completion_polling = 1U << 9,   // io_uring: completions are polled (IOPOLL), not interrupts
};

class Capabilities {
 public:
  constexpr Capabilities() = default;
  constexpr Capabilities(Capability flag) : bits_(static_cast<std::uint32_t>(flag)) {}  // NOLINT

  [[nodiscard]] constexpr bool has(Capability flag) const noexcept {
    return (bits_ & static_cast<std::uint32_t>(flag)) != 0;
  }
  [[nodiscard]] constexpr std::uint32_t bits() const noexcept { return bits_; }
  constexpr Capabilities& operator|=(Capabilities other) noexcept {
    bits_ |= other.bits_;
    return *this;
  }
  friend constexpr Capabilities operator|(Capabilities a, Capabilities b) noexcept {
    return a |= b;
  }
  friend constexpr bool operator==(Capabilities, Capabilities) = default;

 private:
  std::uint32_t bits_{};
};

constexpr Capabilities operator|(Capability a, Capability b) noexcept {
  return Capabilities(a) | Capabilities(b);
}

// io_uring only: whether a kernel thread polls the submission queue. It saves the submit
// syscall at the price of a CPU spinning while I/O is flowing, so it is off by default.
enum class SubmissionPolling : std::uint8_t { off, kernel_thread };

// io_uring only: which threads call the engine. `single` promises that submit, reap and
// the destructor (while I/O is in flight) all run on one thread, the one that submits first
// (prepare and the registrations may run on another: the ring is created disabled and the
// first submit enables it for its own thread); the kernel then skips cross-thread
// synchronisation and runs completion work only when reap asks for it (SINGLE_ISSUER |
// DEFER_TASKRUN, Linux 6.1+; ignored with SQPOLL or on older kernels, which
// Capability::single_issuer tells). A call from another thread then fails (EEXIST).
enum class CallingThreads : std::uint8_t { any, single };

// io_uring only: how completions are found. `polled` (IORING_SETUP_IOPOLL) has reap poll the
// device's completion queue instead of sleeping until an interrupt: fewer context switches
// at low depth, but only on devices with poll queues (/sys/block/X/queue/io_poll is 1, e.g.
// NVMe with nvme.poll_queues > 0) and descriptors opened with O_DIRECT; elsewhere reads
// fail (EOPNOTSUPP) or the kernel refuses the ring. Never dropped silently: prepare fails
// when the kernel refuses it, so a calibration measures what it names (ring_setup.hpp).
enum class CompletionPolling : std::uint8_t { off, polled };

struct EngineOptions {
  // Maximum requests an engine holds at once, counted from submit() accepting a request
  // until reap() hands back its completion. 1..kMaxOutstandingIosPerWorker.
  std::uint32_t queue_depth{1};
  SubmissionPolling submission_polling{SubmissionPolling::off};
  // How long the SQPOLL thread spins without work before sleeping.
  std::chrono::milliseconds polling_idle{10};
  CallingThreads calling_threads{CallingThreads::any};
  CompletionPolling completion_polling{CompletionPolling::off};
  // threadpool only: helper threads; 0 means min(queue_depth, 8).
  std::uint32_t helper_threads{0};
};

enum class SubmitStatus : std::uint8_t {
  all_accepted,
  // Taking more would exceed queue_depth: the rest were not taken (nothing was sent for
  // them). Reap, then submit the rest.
  queue_full,
  // The kernel is short of resources right now (io_submit EAGAIN): the rest were not taken.
  // Reap, then retry.
  retry_later,
  // The engine cannot submit any more; `error` holds the errno. A bug or a dead kernel object.
  failed,
};

// The first `accepted` requests of the batch were taken, in order; each completes exactly
// once through reap(), successfully or with -errno (a bad target index, descriptor or
// alignment is such a completion, never a refusal).
struct SubmitResult {
  std::size_t accepted{};
  SubmitStatus status{SubmitStatus::all_accepted};
  int error{};  // errno when status == failed, else 0
};

struct ReapResult {
  std::size_t count{};  // completions written to the front of the output span
  int error{};          // errno when the engine itself failed (not an I/O error), else 0
};

class IoEngine {
 public:
  IoEngine() = default;
  IoEngine(const IoEngine&) = delete;
  IoEngine& operator=(const IoEngine&) = delete;
  // Waits for (or cancels) requests still in flight: buffers and descriptors must outlive
  // the engine.
  virtual ~IoEngine() = default;

  [[nodiscard]] virtual EngineKind kind() const noexcept = 0;
  [[nodiscard]] std::string_view name() const noexcept { return to_string(kind()); }
  [[nodiscard]] virtual Capabilities capabilities() const noexcept = 0;

  // Cold path, called once before anything else: sets up kernel objects and preallocates
  // every hot-path structure for options.queue_depth. An error says why this back end
  // cannot run here (e.g. io_uring disabled by sysctl or seccomp), which is what the probe
  // records. A second call fails.
  [[nodiscard]] virtual Result<void> prepare(const EngineOptions& options) = 0;

  // Cold path: the targets, by index. Descriptors are opened and owned by the caller; an
  // invalid one is accepted here and its I/Os complete with -EBADF. Replaces any earlier
  // registration; fails while requests are in flight.
  [[nodiscard]] virtual Result<void> register_targets(std::span<const int> fds) = 0;

  // Cold path, optional: the regions buffers will come from, so engines that can (io_uring)
  // pin them once instead of on every I/O (io_uring: at most 1 GiB per region). Buffers
  // outside these regions still work. An error (e.g. RLIMIT_MEMLOCK) is informational: the
  // engine carries on without.
  [[nodiscard]] virtual Result<void> register_buffers(std::span<const BufferRegion> regions) = 0;

  // Hot path: takes as many requests as fit (see SubmitResult).
  [[nodiscard]] virtual SubmitResult submit(std::span<const IoRequest> requests) noexcept = 0;

  // Hot path: writes up to out.size() completions to `out`, waiting until at least
  // min(min_completions, in_flight(), out.size()) are available or `timeout` has passed
  // (zero: do not wait; the timeout is honoured even with I/O in flight). Returns at once
  // when nothing is in flight. Completions may come in any order.
  [[nodiscard]] virtual ReapResult reap(std::span<IoCompletion> out, std::size_t min_completions,
                                        Nanoseconds timeout) noexcept = 0;

  // Requests accepted and not yet reaped (never more than queue_depth).
  [[nodiscard]] virtual std::uint32_t in_flight() const noexcept = 0;
  [[nodiscard]] virtual std::uint32_t queue_depth() const noexcept = 0;
};

}  // namespace iomark::engine
