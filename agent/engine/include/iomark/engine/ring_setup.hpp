// io_uring's set-ups as candidates of `auto`: the same engine with different ring
// flags behaves differently enough that each is measured on its own, not assumed.
//
//   standard       COOP_TASKRUN | TASKRUN_FLAG | SUBMIT_ALL: what `--engine io_uring` runs.
//   single_issuer  + SINGLE_ISSUER | DEFER_TASKRUN (Linux 6.1+): no cross-thread locking,
//                  completion work runs only when the worker reaps.
//   polled         + IOPOLL: the worker polls the device for completions instead of sleeping
//                  on an interrupt; needs O_DIRECT and a device with poll queues
//                  (/sys/block/X/queue/io_poll = 1, e.g. NVMe with nvme.poll_queues > 0).
//
// Whether a set-up can run on a target is decided from facts (kernel release, O_DIRECT, the
// device's io_poll) before its trial, so an unsupported one is skipped with a reason and
// never costs a trial; the trial then checks the engine really got the flags (a kernel may
// still refuse them), see engine_trial.cpp. Facts are gathered by ring_setup_facts(); tests
// fake them.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "iomark/engine/engine_kind.hpp"
#include "iomark/engine/io_engine.hpp"

namespace iomark::engine {

enum class RingSetup : std::uint8_t { standard, single_issuer, polled };

inline constexpr std::array<RingSetup, 3> kRingSetups{RingSetup::standard, RingSetup::single_issuer,
                                                      RingSetup::polled};

// "io_uring", "io_uring (SINGLE_ISSUER|DEFER_TASKRUN)", "io_uring (IOPOLL)" for io_uring;
// the engine's name for every other kind (whose set-up is always standard).
[[nodiscard]] std::string candidate_name(EngineKind kind, RingSetup setup);

// The engine options a candidate runs with at `queue_depth`.
[[nodiscard]] EngineOptions candidate_options(EngineKind kind, RingSetup setup, std::uint32_t queue_depth);

// What the set-ups depend on, for one target on this host.
struct RingSetupFacts {
  std::string kernel_release;  // uname -r
  bool direct_io{};            // the target's descriptor has O_DIRECT
  // The device's queue/io_poll: true "1", false "0", nullopt when it could not be read
  // (not a block device, no such sysfs file); with `device` naming what was looked at.
  std::optional<bool> device_polls;
  std::string device;  // "/sys/dev/block/251:0" or why none was found
};

// The facts of the open descriptor `fd`: its O_DIRECT flag, and the io_poll of the block
// device it is (or, for a file, of the device under its file system, a partition's disk) as
// found under `sysfs_root`/dev/block/MAJOR:MINOR. Reads only.
[[nodiscard]] RingSetupFacts ring_setup_facts(int fd, std::string_view kernel_release,
                                              const std::filesystem::path& sysfs_root = "/sys");

// Why `setup` cannot run with these facts, or nullopt when it may (its trial decides):
// single_issuer needs Linux 6.1 or later; polled needs O_DIRECT and io_poll = 1.
[[nodiscard]] std::optional<std::string> unsupported_ring_setup(RingSetup setup, const RingSetupFacts& facts);

}  // namespace iomark::engine
