// Seeds of the legacy_codec fuzz target: one typical block of each structure, behind the
// byte that picks its decoder and cut after its last non-zero byte (legacy_codec_fuzz.cpp
// zero-fills the rest).
#include <algorithm>

#include "../unit/legacy/sample_blocks.hpp"
#include "fuzz_support.hpp"

namespace iomark::fuzz {

namespace {

Seed block_seed(std::string name, std::uint8_t decoder, const legacy::DataBlock& block) {
  const auto last = std::find_if(block.rbegin(), block.rend(), [](std::byte b) { return b != std::byte{0}; });
  std::vector<std::byte> bytes{std::byte{decoder}};
  bytes.insert(bytes.end(), block.begin(), last.base());
  return {std::move(name), std::move(bytes)};
}

}  // namespace

std::vector<Seed> legacy_codec_seeds() {
  using namespace legacy;
  const auto login = encode_message({Purpose::login, kVersionCode_1_1_0});
  std::vector<std::byte> message{std::byte{0}};
  message.insert(message.end(), login.begin(), login.end());
  return {
      {"login_message", message},
      block_seed("manager_info", 1, encode_manager_info(test::sample_manager_info()).value()),
      block_seed("test_spec", 2, encode_test_spec(test::sample_spec()).value()),
      block_seed("report_targets", 3, encode_target_list(test::sample_targets()).value()),
      block_seed("set_targets", 4, encode_target_list(test::sample_targets()).value()),
      block_seed("worker_results", 5, encode_worker_results(test::sample_worker_results()).value()),
      block_seed("manager_results", 6, encode_manager_results(test::sample_manager_results()).value()),
  };
}

}  // namespace iomark::fuzz
