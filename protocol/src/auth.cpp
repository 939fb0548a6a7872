#include "iomark/protocol/auth.hpp"

#include <climits>
#include <string>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

namespace iomark::protocol {

namespace {

constexpr std::string_view kWhitespace = " \t\r\n\v\f";
constexpr std::string_view kProofLabel = "iomark.v1 auth";

const unsigned char* as_uchars(std::span<const std::byte> bytes) noexcept {
  return reinterpret_cast<const unsigned char*>(bytes.data());
}

Role other(Role role) noexcept { return role == Role::agent ? Role::controller : Role::agent; }

ConnectionSide other(ConnectionSide side) noexcept {
  return side == ConnectionSide::dialer ? ConnectionSide::listener : ConnectionSide::dialer;
}

Error auth_failed(std::string why) {
  return Error(ErrorCode::validation_error, "authentication failed: " + std::move(why)).in_field("auth_response");
}

}  // namespace

Result<AuthKey> AuthKey::from_text(std::string_view text) {
  const auto first = text.find_first_not_of(kWhitespace);
  const auto key = first == std::string_view::npos
                       ? std::string_view()
                       : text.substr(first, text.find_last_not_of(kWhitespace) - first + 1);
  if (key.size() < kMinKeyBytes) {
    return fail(Error(ErrorCode::invalid_argument,
                      "the key is " + std::to_string(key.size()) + " bytes long, at least " +
                          std::to_string(kMinKeyBytes) +
                          " are needed; generate one with: head -c 32 /dev/urandom | base64 > iomark.key")
                    .in_field("key"));
  }
  if (key.size() > kMaxKeyBytes) {
    return fail(Error(ErrorCode::invalid_argument, "the key is " + std::to_string(key.size()) +
                                                       " bytes long, at most " + std::to_string(kMaxKeyBytes) +
                                                       " are allowed")
                    .in_field("key"));
  }
  const auto* begin = reinterpret_cast<const std::byte*>(key.data());
  return AuthKey(std::vector<std::byte>(begin, begin + key.size()));
}

AuthKey& AuthKey::operator=(const AuthKey& other) {
  if (this != &other) {
    wipe();
    bytes_ = other.bytes_;
  }
  return *this;
}

AuthKey& AuthKey::operator=(AuthKey&& other) noexcept {
  if (this != &other) {
    wipe();
    bytes_ = std::move(other.bytes_);
  }
  return *this;
}

AuthKey::~AuthKey() { wipe(); }

void AuthKey::wipe() noexcept {
  // OPENSSL_cleanse, unlike memset, is not optimised away for memory about to be freed.
  if (!bytes_.empty()) OPENSSL_cleanse(bytes_.data(), bytes_.size());
}

Result<Proof> hmac_sha256(std::span<const std::byte> key, std::span<const std::byte> data) {
  if (key.size() > static_cast<std::size_t>(INT_MAX)) {
    return fail(ErrorCode::invalid_argument, "an HMAC key of " + std::to_string(key.size()) + " bytes is too long");
  }
  // OpenSSL wants a non-null key pointer even for an empty key.
  static constexpr unsigned char kNoKey = 0;
  Proof mac{};
  unsigned int mac_size = 0;
  const auto* done = HMAC(EVP_sha256(), key.empty() ? &kNoKey : as_uchars(key), static_cast<int>(key.size()),
                          as_uchars(data), data.size(), reinterpret_cast<unsigned char*>(mac.data()), &mac_size);
  if (done == nullptr || mac_size != mac.size()) {
    return fail(ErrorCode::internal, "OpenSSL could not compute HMAC-SHA256 (is its default provider available?)");
  }
  return mac;
}

bool constant_time_equal(std::span<const std::byte> a, std::span<const std::byte> b) noexcept {
  if (a.size() != b.size()) return false;
  return a.empty() || CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Result<Nonce> random_nonce() {
  Nonce nonce{};
  if (RAND_bytes(reinterpret_cast<unsigned char*>(nonce.data()), static_cast<int>(nonce.size())) != 1) {
    return fail(ErrorCode::io_error, "the system's random number generator failed to produce a nonce");
  }
  return nonce;
}

Result<Proof> compute_proof(const AuthKey& key, const ProofInput& input) {
  std::array<std::byte, kProofLabel.size() + 3 + 2 * kNonceBytes> message{};
  auto* out = message.data();
  for (const char c : kProofLabel) *out++ = static_cast<std::byte>(c);
  *out++ = std::byte{0};
  *out++ = static_cast<std::byte>(input.prover_role);
  *out++ = static_cast<std::byte>(input.prover_side);
  for (const auto b : input.verifier_nonce) *out++ = b;
  for (const auto b : input.prover_nonce) *out++ = b;
  return hmac_sha256(key.bytes(), message);
}

Authenticator::Authenticator(AuthKey key, Role own_role, ConnectionSide own_side, Nonce own_nonce) noexcept
    : key_(std::move(key)), own_role_(own_role), own_side_(own_side), own_nonce_(own_nonce) {}

Result<AuthResponse> Authenticator::answer(const AuthChallenge& peer) {
  if (constant_time_equal(peer.nonce, own_nonce_)) {
    return fail(auth_failed("the peer sent our own challenge back").in_field("auth_challenge"));
  }
  peer_nonce_ = peer.nonce;
  auto proof = compute_proof(key_, {own_role_, own_side_, peer.nonce, own_nonce_});
  if (!proof) return fail(std::move(proof).error());
  return AuthResponse{*proof};
}

Result<void> Authenticator::verify(const AuthResponse& peer) const {
  if (!peer_nonce_) return fail(auth_failed("the peer answered before it sent its own challenge"));
  auto expected = compute_proof(key_, {other(own_role_), other(own_side_), own_nonce_, *peer_nonce_});
  if (!expected) return fail(std::move(expected).error());
  if (!constant_time_equal(*expected, peer.proof)) {
    return fail(auth_failed("the peer's proof does not match: it uses another key (or replayed an old answer)"));
  }
  return {};
}

}  // namespace iomark::protocol
