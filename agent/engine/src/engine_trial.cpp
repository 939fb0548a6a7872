#include "iomark/engine/engine_trial.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <system_error>
#include <thread>

#include "iomark/common/cpu_affinity.hpp"
#include "iomark/common/io_clock.hpp"
#include "iomark/engine/buffer_pool.hpp"
#include "iomark/engine/calibration.hpp"

namespace iomark::engine {
namespace {

constexpr Nanoseconds kReadTimeout = std::chrono::seconds(10);

// xorshift64: cheap, and any spread of offsets will do for choosing an engine.
std::uint64_t next_random(std::uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

// Nanoseconds the calling thread has spent runnable but waiting for a CPU (the second field
// of /proc/thread-self/schedstat), or 0 where the kernel does not say.
std::uint64_t run_queue_wait_ns() {
  const int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[96] = {};
  const ssize_t length = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  unsigned long long on_cpu = 0;
  unsigned long long waiting = 0;
  if (length <= 0 || std::sscanf(text, "%llu %llu", &on_cpu, &waiting) != 2) return 0;
  return waiting;
}

EngineTrial did_not_run(EngineKind kind, RingSetup setup, std::string why) {
  EngineTrial trial;
  trial.kind = kind;
  trial.setup = setup;
  trial.failure = std::move(why);
  return trial;
}

// Why the prepared engine is not the set-up asked for (the kernel may drop flags it lacks).
std::optional<std::string> setup_not_granted(RingSetup setup, const IoEngine& engine) {
  if (setup == RingSetup::single_issuer && !engine.capabilities().has(Capability::single_issuer)) {
    return "the kernel did not grant SINGLE_ISSUER|DEFER_TASKRUN";
  }
  if (setup == RingSetup::polled && !engine.capabilities().has(Capability::completion_polling)) {
    return "the kernel did not grant IOPOLL";
  }
  return std::nullopt;
}

// The trial itself, on the calling thread.
EngineTrial run_trial(EngineKind kind, RingSetup setup, const TrialTarget& target, const TrialOptions& options) {
  const auto not_run = [kind, setup](std::string why) { return did_not_run(kind, setup, std::move(why)); };
  const auto alignment = buffer_alignment(target.logical_block_size);
  if (!alignment) return not_run(alignment.error().message());
  const std::size_t block_bytes = std::max<std::size_t>(options.block_bytes, *alignment) / *alignment * *alignment;
  const std::uint64_t blocks = target.readable_bytes / block_bytes;
  if (blocks == 0) return not_run("the target holds less than one " + std::to_string(block_bytes) + "-byte block");
  auto pool = BufferPool::create(options.queue_depth, block_bytes, target.logical_block_size);
  if (!pool) return not_run(pool.error().message());

  const auto self = static_cast<std::int32_t>(::gettid());
  const auto workers_before = count_io_uring_workers(self);
  auto engine = make_prepared_engine(kind, candidate_options(kind, setup, options.queue_depth));
  if (!engine) return not_run(engine.error().message());
  if (auto refused = setup_not_granted(setup, **engine)) return not_run(*refused);
  const int fds[] = {target.fd};
  if (auto ok = (*engine)->register_targets(fds); !ok) return not_run(ok.error().message());
  // As the worker does; an engine that cannot register buffers carries on without.
  (void)(*engine)->register_buffers(std::array<BufferRegion, 1>{pool->region()});

  std::vector<IoRequest> batch(options.queue_depth);
  std::vector<IoCompletion> done(options.queue_depth);
  std::vector<std::uint32_t> free_slots(options.queue_depth);
  for (std::uint32_t i = 0; i < options.queue_depth; ++i) free_slots[i] = i;
  std::size_t free_count = options.queue_depth;
  std::uint64_t random_state = 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(target.fd);

  const auto start_ns = monotonic_now_ns();
  const auto measure_from_ns = start_ns + static_cast<std::uint64_t>(Nanoseconds(options.warm_up).count());
  const auto measure_until_ns = measure_from_ns + static_cast<std::uint64_t>(Nanoseconds(options.measured).count());
  bool measuring = false;
  std::uint64_t wall_from_ns = 0;
  std::uint64_t cpu_from_ns = 0;
  std::uint64_t waited_from_ns = 0;
  std::uint64_t reads = 0;
  for (;;) {
    std::size_t count = 0;
    while (free_count > 0) {
      const auto slot = free_slots[--free_count];
      const auto offset = next_random(random_state) % blocks * block_bytes;
      batch[count++] = {slot, 0, IoOp::read, offset, static_cast<std::uint32_t>(block_bytes), pool->slot(slot)};
    }
    const auto submitted = (*engine)->submit(std::span(batch.data(), count));
    for (std::size_t i = submitted.accepted; i < count; ++i) free_slots[free_count++] = static_cast<std::uint32_t>(batch[i].tag);
    if (submitted.status == SubmitStatus::failed) {
      return not_run("submit failed: " + std::string(std::strerror(submitted.error)));
    }
    const auto reaped = (*engine)->reap(done, 1, kReadTimeout);
    if (reaped.error != 0) return not_run("reap failed: " + std::string(std::strerror(reaped.error)));
    if (reaped.count == 0 && (*engine)->in_flight() > 0) return not_run("a read did not complete in 10 s");
    for (std::size_t i = 0; i < reaped.count; ++i) {
      if (done[i].failed()) {
        return not_run("a " + std::to_string(block_bytes) + "-byte read failed: " +
                                     std::strerror(static_cast<int>(-done[i].result)));
      }
      free_slots[free_count++] = static_cast<std::uint32_t>(done[i].tag);
    }
    const auto now = monotonic_now_ns();
    if (measuring) reads += reaped.count;
    if (!measuring && now >= measure_from_ns) {
      measuring = true;
      wall_from_ns = now;
      cpu_from_ns = clock_now_ns(CLOCK_PROCESS_CPUTIME_ID);
      waited_from_ns = run_queue_wait_ns();
    } else if (measuring && now >= measure_until_ns) {
      const auto cpu_ns = clock_now_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_from_ns;
      EngineTrial trial;
      trial.kind = kind;
      trial.setup = setup;
      trial.ran = true;
      trial.reads = reads;
      // On a busy machine the wall clock mostly measures how often the scheduler ran us, and
      // an engine with helper threads gets a bigger share; the time this thread sat runnable
      // waiting for a CPU is not the engine's, so it does not count.
      const auto waited_ns = run_queue_wait_ns() - waited_from_ns;
      const auto wall_ns = now - wall_from_ns;
      const auto engine_ns = waited_ns < wall_ns / 2 ? wall_ns - waited_ns : wall_ns / 2;
      trial.iops = static_cast<double>(reads) * 1e9 / static_cast<double>(engine_ns);
      trial.cpu_ns_per_io = reads > 0 ? static_cast<double>(cpu_ns) / static_cast<double>(reads) : 0.0;
      const auto workers_after = count_io_uring_workers(self);
      if (workers_before && workers_after && *workers_after > *workers_before) {
        trial.io_worker_threads = *workers_after - *workers_before;
      }
      // Reap what is still in flight before the engine and buffers go.
      while ((*engine)->in_flight() > 0) {
        if ((*engine)->reap(done, 1, kReadTimeout).count == 0) break;
      }
      return trial;
    }
  }
}

}  // namespace

EngineTrial measure_engine_reads(EngineKind kind, const TrialTarget& target, const TrialOptions& options,
                                 RingSetup setup) {
  if (options.queue_depth == 0 || options.queue_depth > kMaxOutstandingIosPerWorker) {
    return did_not_run(kind, setup, "queue depth must be 1.." + std::to_string(kMaxOutstandingIosPerWorker));
  }
  EngineTrial trial = did_not_run(kind, setup, "the trial did not run");
  try {
    std::thread round([&] {
      if (options.cpu) {
        if (const int error_number = pin_thread_to_cpu(::pthread_self(), *options.cpu); error_number != 0) {
          trial = did_not_run(kind, setup,
                              "cannot pin to CPU " + std::to_string(*options.cpu) + ": " + std::strerror(error_number));
          return;
        }
      }
      trial = run_trial(kind, setup, target, options);
    });
    round.join();
  } catch (const std::system_error& error) {
    return did_not_run(kind, setup, std::string("cannot start a thread: ") + error.what());
  }
  return trial;
}

std::vector<EngineTrial> measure_engines(const TrialTarget& target, const TrialOptions& options,
                                         std::span<const EngineProbe> probes, const RingSetupFacts& facts) {
  std::vector<EngineTrial> trials;
  for (const EngineKind kind : kProbeOrder) {
    const auto probe = std::find_if(probes.begin(), probes.end(), [kind](const EngineProbe& p) { return p.kind == kind; });
    const bool available = probe == probes.end() || probe->available;
    for (const RingSetup setup : kRingSetups) {
      if (kind != EngineKind::io_uring && setup != RingSetup::standard) continue;
      if (!available) {
        trials.push_back(did_not_run(kind, setup, probe->reason));
      } else if (const auto unsupported = unsupported_ring_setup(setup, facts)) {
        trials.push_back(did_not_run(kind, setup, *unsupported));
      } else {
        trials.push_back(measure_engine_reads(kind, target, options, setup));
      }
    }
  }
  for (std::uint32_t round = 1; round < options.rounds; ++round) {
    for (EngineTrial& best : trials) {
      if (!best.ran) continue;
      const EngineTrial again = measure_engine_reads(best.kind, target, options, best.setup);
      if (!again.ran) continue;
      best.iops = std::max(best.iops, again.iops);
      best.cpu_ns_per_io = std::min(best.cpu_ns_per_io, again.cpu_ns_per_io);
      best.reads += again.reads;
      // A cold file's first extent lookups may block, and so punt, once: a round that did
      // not punt shows what steady-state reads do.
      best.io_worker_threads = std::min(best.io_worker_threads, again.io_worker_threads);
    }
  }
  return trials;
}

std::vector<EngineTrial> measure_engines(const TrialTarget& target, const TrialOptions& options,
                                         std::span<const EngineProbe> probes) {
  utsname names{};
  const std::string release = ::uname(&names) == 0 ? names.release : "";
  return measure_engines(target, options, probes, ring_setup_facts(target.fd, release));
}

}  // namespace iomark::engine
