// Fully populated messages for the protocol tests: every field set to a value other than
// its default, so a converter that drops or swaps a field fails the round trip.
#pragma once

#include <cstdint>
#include <vector>

#include "iomark/protocol/messages.hpp"

namespace iomark::protocol::test {

// Counters with reads, writes, transactions, errors and a histogram of `ios` latencies
// spread from 40 ns to ~270 s (so the exact, log-linear, overflow and legacy >= 10 s
// buckets are all used). `salt` varies the values.
[[nodiscard]] IoCounters sample_counters(std::uint64_t ios, std::uint64_t salt);

[[nodiscard]] Hello sample_hello();
[[nodiscard]] Inventory sample_inventory();
[[nodiscard]] Assignment sample_assignment();
[[nodiscard]] Sample sample_sample();
[[nodiscard]] FinalResults sample_final_results();

// One envelope per message type, in the order of the Message variant, with distinct
// request and correlation ids.
[[nodiscard]] std::vector<Envelope> every_message();

}  // namespace iomark::protocol::test
