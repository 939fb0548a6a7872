// Where the pre-shared key comes from: --key-file FILE, or the IOMARK_KEY environment
// variable. The key text follows protocol::AuthKey::from_text().
//
// Permissions (decided here, for both sides): the key is a password, so like ssh with a
// private key we refuse, with an error saying how to fix it (chmod 600), a key file that
// every user can read or write, or that its group can write. A group-readable file is
// accepted, so that a group of operators can share one key.
#pragma once

#include <filesystem>
#include <optional>

#include "iomark/common/result.hpp"
#include "iomark/protocol/auth.hpp"

namespace iomark::transport {

inline constexpr const char* kKeyEnvironmentVariable = "IOMARK_KEY";

// The key in `path`. Errors (field "--key-file", the message names the file):
// not_found when it does not exist; io_error when it cannot be read or is not a regular file;
// validation_error for the permissions above; invalid_argument when it is empty, too short or
// too long (AuthKey::from_text()).
[[nodiscard]] Result<protocol::AuthKey> load_key_file(const std::filesystem::path& path);

// The key from `key_file` when given (IOMARK_KEY is then ignored), else from IOMARK_KEY.
// Errors: those of load_key_file(); not_found when neither is given (the message lists
// --key-file, IOMARK_KEY and --insecure); invalid_argument (field "IOMARK_KEY") for an
// empty or unusable IOMARK_KEY. Reads the environment: not to be called while another
// thread changes it.
[[nodiscard]] Result<protocol::AuthKey> load_key(const std::optional<std::filesystem::path>& key_file);

}  // namespace iomark::transport
