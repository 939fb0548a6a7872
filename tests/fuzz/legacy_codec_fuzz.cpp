// The legacy IOmeter codec (legacy/) on arbitrary bytes. The first input byte picks a
// decoder; the rest is the start of an 888,840-byte Data_Message (zero-filled after it, as
// the structures' meaningful fields sit at the front) or, for the Message decoder, the bytes
// as they are. Every decoder must answer with a value or an error, and every value it
// accepts must encode to a block that decodes back to the same value.
#include <algorithm>
#include <cstring>

#include "fuzz_support.hpp"
#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/legacy/test_spec.hpp"
#include "iomark/legacy/wire.hpp"

namespace {

using namespace iomark;
using namespace iomark::legacy;

template <typename T, typename Encode, typename Decode>
void check_round_trip(const Result<T>& decoded, Encode encode, Decode decode) {
  if (!decoded) {
    fuzz::require(!decoded.error().message().empty(), "a rejection says why");
    return;
  }
  auto block = encode(*decoded);
  fuzz::require(block.has_value(), "an accepted value encodes");
  fuzz::require(block->size() == kDataMessageBytes, "an encoded block is a whole Data_Message");
  auto again = decode(*block);
  fuzz::require(again.has_value() && *again == *decoded, "an accepted value survives encode and decode");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto input = fuzz::bytes_of(data, size);
  const auto body = input.subspan(1);
  auto block = make_data_block();
  std::copy_n(body.begin(), std::min(body.size(), block.size()), block.begin());

  switch (data[0] % 7) {
    case 0: {
      const auto message = decode_message(body);
      fuzz::require(message.has_value() == (body.size() == kMessageBytes), "any 8 bytes are a Message");
      if (message) {
        const auto bytes = encode_message(*message);
        fuzz::require(std::equal(bytes.begin(), bytes.end(), body.begin()), "a Message encodes to its bytes");
        (void)check_login(*message);
      }
      break;
    }
    case 1: check_round_trip(decode_manager_info(block), encode_manager_info, decode_manager_info); break;
    case 2: check_round_trip(decode_test_spec(block), encode_test_spec, decode_test_spec); break;
    case 3:
    case 4: {
      const auto use = data[0] % 7 == 3 ? TargetListUse::discovery : TargetListUse::assignment;
      check_round_trip(
          decode_target_list(block, use), [](const auto& targets) { return encode_target_list(targets); },
          [use](const auto& bytes) { return decode_target_list(bytes, use); });
      break;
    }
    case 5: check_round_trip(decode_worker_results(block), encode_worker_results, decode_worker_results); break;
    case 6: check_round_trip(decode_manager_results(block), encode_manager_results, decode_manager_results); break;
  }
  // A block of any other length is refused by every decoder.
  if (body.size() < kDataMessageBytes) {
    fuzz::require(!decode_worker_results(body).has_value(), "a short block is refused");
  }
  return 0;
}
