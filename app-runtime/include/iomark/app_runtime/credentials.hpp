// The pre-shared key and the TLS files a program's connection flags name, loaded once for the
// agent, the CLI and the GUI alike (where the key comes from and the rules on its file's
// permissions: transport/key_file.hpp).
#pragma once

#include <memory>
#include <optional>

#include "iomark/common/result.hpp"
#include "iomark/protocol/auth.hpp"
#include "iomark/run_options/run_flags.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::app_runtime {

struct Credentials {
  std::optional<protocol::AuthKey> key{};                 // none with --insecure
  std::shared_ptr<const transport::TlsCredentials> tls{};  // none: plain TCP
};

enum class KeyNeed : std::uint8_t {
  required,       // no key named anywhere is an error (it lists --key-file, IOMARK_KEY, --insecure)
  when_named,     // no key named anywhere is no key; one named and unusable is still an error
};

// Errors: those of transport::load_key() and transport::load_tls(); a key or TLS file that was
// named and cannot be used is refused, never replaced by no key or by plain TCP.
[[nodiscard]] Result<Credentials> load_credentials(const run_options::ConnectionFlags& flags, KeyNeed need);

}  // namespace iomark::app_runtime
