// Pre-shared-key authentication: HMAC-SHA256 challenge-response both ways (OpenSSL
// libcrypto). Pure: no sockets, no files; reading a key file is the caller's job.
//
// The exchange, after both Hellos asked for AuthMode::pre_shared_key:
//   1. each side sends AuthChallenge{its own fresh random nonce};
//   2. each side answers the peer's challenge with AuthResponse{proof};
//   3. each side verifies the peer's proof and sends AuthResult; only then are requests
//      accepted. A rejected side gets AuthResult{accepted = false} and the connection closes.
//
//   proof = HMAC-SHA256(key, "iomark.v1 auth" || 0x00 || prover role (1 byte: 1 agent,
//           2 controller) || prover side (1 byte: 1 dialer, 2 listener) ||
//           verifier's nonce (32 bytes) || prover's nonce (32 bytes))
//
// Why these inputs: the verifier's fresh nonce makes a proof good for one session only, so
// a recorded proof cannot be replayed; role and side make a proof useless in the other
// direction, so a challenge reflected back to its sender, or relayed between a listening
// agent and a listening controller, does not produce a proof the verifier accepts; the
// prover's nonce binds the proof to both challenges of the session. Both sides prove, so
// neither trusts a peer that merely accepted it.
//
// What it does not do: encrypt or sign the frames that follow. An attacker who relays a
// whole session between a real agent and a real controller is not detected; run on a
// trusted network (TLS is a later option).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::protocol {

inline constexpr std::size_t kMinKeyBytes = 16;
inline constexpr std::size_t kMaxKeyBytes = 4096;

// A pre-shared key. Its bytes are wiped when it is destroyed.
class AuthKey {
 public:
  // The key from the text of a key file or of IOMARK_KEY: leading and trailing ASCII
  // whitespace (a final newline) is dropped, the rest is the key, byte for byte.
  // Errors: invalid_argument when it is shorter than kMinKeyBytes (the message says how
  // to generate one) or longer than kMaxKeyBytes.
  [[nodiscard]] static Result<AuthKey> from_text(std::string_view text);

  AuthKey(const AuthKey& other) = default;
  AuthKey(AuthKey&& other) noexcept = default;
  AuthKey& operator=(const AuthKey& other);
  AuthKey& operator=(AuthKey&& other) noexcept;
  ~AuthKey();

  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return bytes_; }

 private:
  explicit AuthKey(std::vector<std::byte> bytes) noexcept : bytes_(std::move(bytes)) {}
  void wipe() noexcept;

  std::vector<std::byte> bytes_;
};

// HMAC-SHA256 (RFC 2104 with SHA-256); any key length. Errors: internal when OpenSSL
// cannot compute it (its default provider is missing).
[[nodiscard]] Result<Proof> hmac_sha256(std::span<const std::byte> key, std::span<const std::byte> data);

// Compares in time that depends only on the sizes; false when the sizes differ.
[[nodiscard]] bool constant_time_equal(std::span<const std::byte> a, std::span<const std::byte> b) noexcept;

// A fresh nonce from OpenSSL's CSPRNG. Errors: io_error when it cannot be seeded.
[[nodiscard]] Result<Nonce> random_nonce();

enum class ConnectionSide : std::uint8_t {
  dialer = 1,    // opened the TCP connection
  listener = 2,  // accepted it
};

// Everything a proof covers, besides the key (see the formula above).
struct ProofInput {
  Role prover_role{Role::agent};
  ConnectionSide prover_side{ConnectionSide::dialer};
  Nonce verifier_nonce{};  // the challenge being answered
  Nonce prover_nonce{};    // the challenge the prover itself sent
};

[[nodiscard]] Result<Proof> compute_proof(const AuthKey& key, const ProofInput& input);

// One side of the exchange. The peer is assumed to have the other role and the other side.
// Not thread-safe; one per connection.
class Authenticator {
 public:
  // `own_nonce` must come from random_nonce() (tests pass fixed ones).
  Authenticator(AuthKey key, Role own_role, ConnectionSide own_side, Nonce own_nonce) noexcept;

  // The challenge to send.
  [[nodiscard]] AuthChallenge challenge() const noexcept { return AuthChallenge{own_nonce_}; }

  // The answer to the peer's challenge; remembers the peer's nonce for verify().
  // Errors: validation_error when the peer sent our own nonce back (a reflection).
  [[nodiscard]] Result<AuthResponse> answer(const AuthChallenge& peer);

  // Checks the peer's proof against our challenge and the peer's (answer() first).
  // Errors: validation_error "authentication failed: ..." when the proof is wrong (another
  // key, or a proof from another session) or when answer() has not been called.
  [[nodiscard]] Result<void> verify(const AuthResponse& peer) const;

 private:
  AuthKey key_;
  Role own_role_;
  ConnectionSide own_side_;
  Nonce own_nonce_;
  std::optional<Nonce> peer_nonce_;
};

}  // namespace iomark::protocol
