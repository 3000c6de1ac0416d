#include "identity/credentials/session_token.h"

#include <string>

#include <gtest/gtest.h>

#include "identity/credentials/secret_codec.h"

namespace allot::identity {
namespace {

const Timestamp kSessionNow = Timestamp::from_millis(1'700'000'000'000);

SessionClaims claims() {
  return {"ana",         {"vision-team"}, "vision",
          "team-member", kSessionNow,     kSessionNow + Duration::hours(8)};
}

TEST(SessionToken, ASignedSessionVerifiesToItsClaims) {
  const SessionKeyRing ring = SessionKeyRing::fresh(kSessionNow);
  const std::string token = sign_session(claims(), ring.current());

  const Result<SessionClaims> verified =
      verify_session(token, ring, kSessionNow + Duration::hours(1));

  ASSERT_TRUE(verified.ok()) << verified.status().to_string();
  EXPECT_EQ(*verified, claims());
}

TEST(SessionToken, AnExpiredSessionIsRefused) {
  const SessionKeyRing ring = SessionKeyRing::fresh(kSessionNow);
  const std::string token = sign_session(claims(), ring.current());

  const Result<SessionClaims> verified =
      verify_session(token, ring, kSessionNow + Duration::hours(8));

  EXPECT_EQ(verified.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(verified.status().message().find("expired"), std::string::npos);
}

TEST(SessionToken, AChangedClaimOrSignatureIsRefusedAndTheTokenNeverEchoed) {
  const SessionKeyRing ring = SessionKeyRing::fresh(kSessionNow);
  const std::string token = sign_session(claims(), ring.current());
  const size_t dot = token.find('.');
  // The same signature over claims naming another team.
  SessionClaims other = claims();
  other.team = "llm";
  const std::string forged_body = sign_session(other, ring.current()).substr(0, dot + 2);
  const std::string forged = forged_body.substr(0, forged_body.find('.')) + token.substr(dot);
  std::string flipped = token;
  flipped.back() = flipped.back() == 'A' ? 'B' : 'A';

  for (const std::string& bad : {forged, flipped, token.substr(0, dot), std::string("allots_x.y"),
                                 std::string("bearer"), token + "x"}) {
    const Result<SessionClaims> verified = verify_session(bad, ring, kSessionNow);
    EXPECT_EQ(verified.status().code(), ErrorCode::kUnauthenticated) << bad;
    EXPECT_EQ(verified.status().to_string().find(bad), std::string::npos);
  }
}

TEST(SessionToken, RotatingTheKeyLogsNobodyOutAndOldKeysGoAfterTheirSessions) {
  SessionKeyRing ring = SessionKeyRing::fresh(kSessionNow);
  const std::string before = sign_session(claims(), ring.current());

  ring.rotate(kSessionNow + Duration::hours(1), Duration::hours(12));
  const std::string after = sign_session(claims(), ring.current());

  EXPECT_EQ(ring.keys().size(), 2u);
  EXPECT_TRUE(verify_session(before, ring, kSessionNow + Duration::hours(2)).ok());
  EXPECT_TRUE(verify_session(after, ring, kSessionNow + Duration::hours(2)).ok());
  ring.rotate(kSessionNow + Duration::hours(13), Duration::hours(12));
  EXPECT_EQ(ring.keys().size(), 2u) << "the first key is older than any session it signed";
  EXPECT_FALSE(verify_session(before, ring, kSessionNow + Duration::hours(2)).ok());
}

TEST(SessionToken, AnotherRingsKeyDoesNotVerify) {
  const SessionKeyRing mine = SessionKeyRing::fresh(kSessionNow);
  const SessionKeyRing theirs = SessionKeyRing::fresh(kSessionNow);

  EXPECT_FALSE(verify_session(sign_session(claims(), theirs.current()), mine, kSessionNow).ok());
}

TEST(SessionToken, TheRingRoundTripsThroughJson) {
  SessionKeyRing ring = SessionKeyRing::fresh(kSessionNow);
  ring.rotate(kSessionNow + Duration::hours(1), Duration::hours(12));

  const Result<SessionKeyRing> back = SessionKeyRing::from_json(ring.to_json());

  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(back->keys(), ring.keys());
  EXPECT_FALSE(SessionKeyRing::from_json(nlohmann::json{{"keys", nlohmann::json::array()}}).ok());
}

}  // namespace
}  // namespace allot::identity
