// LocalLogin: a SCIM User's password against its Argon2id hash; active
// users only; the same refusal whether or not the user exists; lockout on
// the injected clock.
#include "service/identity/local_login.h"

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "store/memory_store.h"

namespace allot {
namespace {

using json = nlohmann::json;
using scim::ResourceKind;

class LoginCountingIds final : public scim::IdGenerator {
 public:
  std::string next_id() override { return "id-" + std::to_string(++count_); }

 private:
  int count_ = 0;
};

class LocalLoginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const Result<json> ana = scim_.create(
        ResourceKind::kUser, {{"userName", "Ana@x.org"}, {"password", "c0rrect-h0rse"}});
    ASSERT_TRUE(ana.ok()) << ana.status().to_string();
    ana_ = ana->value("id", "");
    ASSERT_TRUE(scim_.create(ResourceKind::kUser, {{"userName", "nopass@x.org"}}).ok());
  }

  MemoryStore store_;
  ManualClock clock_{Timestamp::from_millis(1'764'660'000'000)};
  LoginCountingIds ids_;
  ScimService scim_{store_, clock_, ids_};
  LocalLogin login_{scim_, clock_, {3, Duration::minutes(10)}};
  std::string ana_;
};

TEST_F(LocalLoginTest, TheRightPasswordGivesTheUserNameAsStored) {
  const Result<std::string> subject = login_.verify("ana@X.ORG", "c0rrect-h0rse");
  ASSERT_TRUE(subject.ok()) << subject.status().to_string();
  EXPECT_EQ(*subject, "Ana@x.org");
}

TEST_F(LocalLoginTest, EveryRefusalReadsTheSameAndNeverEchoesThePassword) {
  const Status wrong = login_.verify("ana@x.org", "guess-1").status();
  EXPECT_EQ(wrong.code(), ErrorCode::kUnauthenticated);
  for (const Status& other : {login_.verify("ghost@x.org", "guess-1").status(),
                              login_.verify("nopass@x.org", "guess-1").status()}) {
    EXPECT_EQ(other, wrong) << "unknown and password-less users look alike";
  }
  EXPECT_EQ(wrong.to_string().find("guess-1"), std::string::npos);
}

TEST_F(LocalLoginTest, ADeactivatedUserCannotLogIn) {
  ASSERT_TRUE(
      scim_
          .patch(ResourceKind::kUser, ana_,
                 {{"Operations", {{{"op", "replace"}, {"path", "active"}, {"value", false}}}}})
          .ok());
  EXPECT_EQ(login_.verify("ana@x.org", "c0rrect-h0rse").status().code(),
            ErrorCode::kUnauthenticated);
}

TEST_F(LocalLoginTest, RepeatedFailuresLockTheNameUntilTheLockRunsOut) {
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(login_.verify("ana@x.org", "guess").ok());
  const Status locked = login_.verify("ANA@x.org", "c0rrect-h0rse").status();
  EXPECT_EQ(locked.code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(locked.message().find("too many failed logins"), std::string::npos);
  // Unknown names are locked alike: the lock says nothing about existence.
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(login_.verify("ghost@x.org", "guess").ok());
  EXPECT_EQ(login_.verify("ghost@x.org", "guess").status().message(), locked.message());

  clock_.advance(Duration::minutes(9));
  EXPECT_FALSE(login_.verify("ana@x.org", "c0rrect-h0rse").ok()) << "still locked";
  clock_.advance(Duration::minutes(2));
  ASSERT_TRUE(login_.verify("ana@x.org", "c0rrect-h0rse").ok());
  // The success cleared the count: two failures do not lock.
  for (int i = 0; i < 2; ++i) EXPECT_FALSE(login_.verify("ana@x.org", "guess").ok());
  EXPECT_TRUE(login_.verify("ana@x.org", "c0rrect-h0rse").ok());
}

TEST_F(LocalLoginTest, ConcurrentLoginsBeyondTheCheckSlotsAllGetTheirAnswer) {
  LocalLogin narrow(scim_, clock_, {100, Duration::minutes(10), 2});
  std::vector<int> ok(6, 0);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < ok.size(); ++i) {
    threads.emplace_back([&, i] {
      ok[i] = narrow.verify("ana@x.org", i % 2 == 0 ? "c0rrect-h0rse" : "guess").ok() ? 1 : 0;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(ok, (std::vector<int>{1, 0, 1, 0, 1, 0}));
}

}  // namespace
}  // namespace allot
