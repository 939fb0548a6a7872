#include "iomark/app_runtime/credentials.hpp"

#include <filesystem>

#include "iomark/transport/key_file.hpp"

namespace iomark::app_runtime {

Result<Credentials> load_credentials(const run_options::ConnectionFlags& flags, KeyNeed need) {
  Credentials credentials;
  if (!flags.insecure) {
    const bool file_named = !flags.key_file.empty();
    auto key = transport::load_key(file_named ? std::optional<std::filesystem::path>(flags.key_file) : std::nullopt);
    if (key) {
      credentials.key = std::move(*key);
    } else if (need == KeyNeed::required || file_named || key.error().code() != ErrorCode::not_found) {
      return fail(key.error());
    }
  }
  auto tls = transport::load_tls(flags.tls_cert, flags.tls_key, flags.tls_ca);
  if (!tls) return fail(tls.error());
  credentials.tls = std::move(*tls);
  return credentials;
}

}  // namespace iomark::app_runtime
