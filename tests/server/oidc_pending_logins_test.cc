// OidcPendingLogins (server/oidc_pending_logins.h): the browser logins sent
// to the issuer and not yet back: each taken once, none past its time, at
// most `capacity` kept (the oldest dropped first).
#include "server/oidc_pending_logins.h"

#include <gtest/gtest.h>

namespace allot::server {
namespace {

Timestamp at_second(int64_t s) { return Timestamp::from_millis(s * 1000); }

OidcPendingLogin login_with_nonce(const std::string& nonce) {
  return {.nonce = nonce,
          .code_verifier = "v-" + nonce,
          .redirect_uri = "http://h/cb",
          .team = "research",
          .role = "team-member"};
}

TEST(OidcPendingLogins, ALoginIsTakenOnceWithWhatWasKept) {
  OidcPendingLogins pending;
  pending.put("state-1", login_with_nonce("n1"), at_second(0));

  const std::optional<OidcPendingLogin> first = pending.take("state-1", at_second(1));
  const std::optional<OidcPendingLogin> again = pending.take("state-1", at_second(2));

  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->nonce, "n1");
  EXPECT_EQ(first->code_verifier, "v-n1");
  EXPECT_EQ(first->team, "research");
  EXPECT_FALSE(again.has_value()) << "a replayed state";
  EXPECT_FALSE(pending.take("state-never-put", at_second(2)).has_value());
}

TEST(OidcPendingLogins, ALoginPastItsTimeIsGone) {
  OidcPendingLogins pending(Duration::minutes(10));
  pending.put("late", login_with_nonce("n1"), at_second(0));
  pending.put("in-time", login_with_nonce("n2"), at_second(0));

  EXPECT_FALSE(pending.take("late", at_second(600)).has_value());
  EXPECT_TRUE(pending.take("in-time", at_second(599)).has_value());
}

TEST(OidcPendingLogins, AtCapacityTheExpiredThenTheOldestGo) {
  OidcPendingLogins pending(Duration::minutes(10), 2);
  pending.put("old", login_with_nonce("n1"), at_second(0));
  pending.put("mid", login_with_nonce("n2"), at_second(1));
  pending.put("new", login_with_nonce("n3"), at_second(2));

  EXPECT_EQ(pending.size(), 2U);
  EXPECT_FALSE(pending.take("old", at_second(3)).has_value());
  EXPECT_TRUE(pending.take("mid", at_second(3)).has_value());

  pending.put("later", login_with_nonce("n4"), at_second(700));  // "new" expired by then
  EXPECT_EQ(pending.size(), 1U);
}

}  // namespace
}  // namespace allot::server
