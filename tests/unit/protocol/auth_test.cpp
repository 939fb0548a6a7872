#include "iomark/protocol/auth.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace iomark::protocol {
namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> out;
  for (const char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

std::string hex(std::span<const std::byte> bytes) {
  std::string text;
  for (const auto b : bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    text += kDigits[static_cast<unsigned>(b) >> 4];
    text += kDigits[static_cast<unsigned>(b) & 0xf];
  }
  return text;
}

Nonce nonce_filled(std::uint8_t value) {
  Nonce nonce{};
  nonce.fill(static_cast<std::byte>(value));
  return nonce;
}

AuthKey key(std::string_view text) {
  auto parsed = AuthKey::from_text(text);
  EXPECT_TRUE(parsed.has_value()) << parsed.error().describe();
  return std::move(parsed).value();
}

const std::string kKey = "correct horse battery staple";

// ---- HMAC-SHA256: RFC 4231 known answers --------------------------------------------

TEST(Hmac, Rfc4231TestCase1) {
  const auto mac = hmac_sha256(std::vector<std::byte>(20, std::byte{0x0b}), bytes_of("Hi There"));
  ASSERT_TRUE(mac.has_value());
  EXPECT_EQ(hex(*mac), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST(Hmac, Rfc4231TestCase2) {
  const auto mac = hmac_sha256(bytes_of("Jefe"), bytes_of("what do ya want for nothing?"));
  ASSERT_TRUE(mac.has_value());
  EXPECT_EQ(hex(*mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Hmac, Rfc4231TestCase6KeyLongerThanABlock) {
  const auto mac = hmac_sha256(std::vector<std::byte>(131, std::byte{0xaa}),
                               bytes_of("Test Using Larger Than Block-Size Key - Hash Key First"));
  ASSERT_TRUE(mac.has_value());
  EXPECT_EQ(hex(*mac), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(Hmac, ConstantTimeEqual) {
  const auto a = bytes_of("abcdef");
  EXPECT_TRUE(constant_time_equal(a, bytes_of("abcdef")));
  EXPECT_FALSE(constant_time_equal(a, bytes_of("abcdeg")));
  EXPECT_FALSE(constant_time_equal(a, bytes_of("abcde")));
  EXPECT_TRUE(constant_time_equal({}, {}));
}

// ---- Keys ---------------------------------------------------------------------------

TEST(AuthKey, TrimsSurroundingWhitespace) {
  const auto from_file = key("  " + kKey + "\n");
  EXPECT_EQ(from_file.bytes().size(), kKey.size());
  EXPECT_TRUE(constant_time_equal(from_file.bytes(), bytes_of(kKey)));
}

TEST(AuthKey, RejectsShortAndLongKeys) {
  const auto short_key = AuthKey::from_text("secret\n");
  ASSERT_FALSE(short_key.has_value());
  EXPECT_EQ(short_key.error().code(), ErrorCode::invalid_argument);
  EXPECT_NE(short_key.error().message().find("/dev/urandom"), std::string::npos);
  EXPECT_FALSE(AuthKey::from_text("   \n").has_value());
  EXPECT_FALSE(AuthKey::from_text(std::string(kMaxKeyBytes + 1, 'k')).has_value());
  EXPECT_TRUE(AuthKey::from_text(std::string(kMinKeyBytes, 'k')).has_value());
}

// ---- Proofs -------------------------------------------------------------------------

TEST(Proof, CoversTheDocumentedMessage) {
  const ProofInput input{Role::controller, ConnectionSide::listener, nonce_filled(0x11), nonce_filled(0x22)};
  // "iomark.v1 auth" 0x00, role 2, side 2, verifier nonce, prover nonce.
  auto message = bytes_of("iomark.v1 auth");
  message.push_back(std::byte{0});
  message.push_back(std::byte{2});
  message.push_back(std::byte{2});
  message.insert(message.end(), 32, std::byte{0x11});
  message.insert(message.end(), 32, std::byte{0x22});
  const auto expected = hmac_sha256(bytes_of(kKey), message);
  const auto proof = compute_proof(key(kKey), input);
  ASSERT_TRUE(proof.has_value() && expected.has_value());
  EXPECT_EQ(*proof, *expected);
}

TEST(Proof, RandomNoncesDiffer) {
  const auto a = random_nonce();
  const auto b = random_nonce();
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_NE(*a, *b);
}

// ---- The exchange -------------------------------------------------------------------

struct Pair {
  Authenticator agent;
  Authenticator controller;
};

// An agent that dialed a listening controller, each with its own key and fixed nonces.
Pair pair(std::string_view agent_key, std::string_view controller_key, std::uint8_t agent_nonce = 0xa1,
          std::uint8_t controller_nonce = 0xc1) {
  return Pair{Authenticator(key(agent_key), Role::agent, ConnectionSide::dialer, nonce_filled(agent_nonce)),
              Authenticator(key(controller_key), Role::controller, ConnectionSide::listener,
                            nonce_filled(controller_nonce))};
}

TEST(Authenticator, SameKeyBothSidesAccept) {
  auto [agent, controller] = pair(kKey, kKey);
  const auto agent_answer = agent.answer(controller.challenge());
  const auto controller_answer = controller.answer(agent.challenge());
  ASSERT_TRUE(agent_answer.has_value() && controller_answer.has_value());
  EXPECT_TRUE(controller.verify(*agent_answer).has_value());
  EXPECT_TRUE(agent.verify(*controller_answer).has_value());
  // The two directions give different proofs, so one cannot stand in for the other.
  EXPECT_NE(agent_answer->proof, controller_answer->proof);
}

TEST(Authenticator, WrongKeyIsRejectedBothWays) {
  auto [agent, controller] = pair(kKey, "a different key entirely");
  const auto agent_answer = agent.answer(controller.challenge());
  const auto controller_answer = controller.answer(agent.challenge());
  ASSERT_TRUE(agent_answer.has_value() && controller_answer.has_value());
  const auto at_controller = controller.verify(*agent_answer);
  const auto at_agent = agent.verify(*controller_answer);
  ASSERT_FALSE(at_controller.has_value());
  ASSERT_FALSE(at_agent.has_value());
  EXPECT_NE(at_controller.error().message().find("authentication failed"), std::string::npos);
  EXPECT_NE(at_agent.error().message().find("authentication failed"), std::string::npos);
}

TEST(Authenticator, RecordedProofCannotBeReplayed) {
  // An eavesdropper records the agent's proof of session 1 and offers it in session 2,
  // where the controller drew a new nonce.
  auto first = pair(kKey, kKey, 0xa1, 0xc1);
  const auto recorded = first.agent.answer(first.controller.challenge());
  ASSERT_TRUE(recorded.has_value());

  auto second = pair(kKey, kKey, 0xa1, 0xc2);
  ASSERT_TRUE(second.controller.answer(AuthChallenge{nonce_filled(0xa1)}).has_value());
  EXPECT_FALSE(second.controller.verify(*recorded).has_value());
}

TEST(Authenticator, ReflectedChallengeIsRefused) {
  auto [agent, controller] = pair(kKey, kKey);
  // A fake controller sends the agent's own nonce back, hoping to reuse the answer.
  const auto reflected = agent.answer(agent.challenge());
  ASSERT_FALSE(reflected.has_value());
  EXPECT_NE(reflected.error().message().find("own challenge"), std::string::npos);
}

TEST(Authenticator, ProofForAnotherRoleOrSideIsRejected) {
  auto [agent, controller] = pair(kKey, kKey);
  ASSERT_TRUE(controller.answer(agent.challenge()).has_value());
  const auto challenge = controller.challenge().nonce;
  const auto own = agent.challenge().nonce;
  // What a second controller (or a listening agent) would compute for the same nonces.
  for (const auto& [role, side] : {std::pair{Role::controller, ConnectionSide::dialer},
                                   std::pair{Role::agent, ConnectionSide::listener}}) {
    const auto proof = compute_proof(key(kKey), {role, side, challenge, own});
    ASSERT_TRUE(proof.has_value());
    EXPECT_FALSE(controller.verify(AuthResponse{*proof}).has_value());
  }
  // And the right one passes, so the rejections above are about role and side alone.
  const auto right = compute_proof(key(kKey), {Role::agent, ConnectionSide::dialer, challenge, own});
  ASSERT_TRUE(right.has_value());
  EXPECT_TRUE(controller.verify(AuthResponse{*right}).has_value());
}

TEST(Authenticator, AnswerBeforeChallengeIsRefused) {
  auto [agent, controller] = pair(kKey, kKey);
  const auto premature = agent.answer(controller.challenge());
  ASSERT_TRUE(premature.has_value());
  // The controller has not seen the agent's challenge yet.
  EXPECT_FALSE(controller.verify(*premature).has_value());
}

}  // namespace
}  // namespace iomark::protocol
