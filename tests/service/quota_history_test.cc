// The teams' quota history (service/control/quota_history.h): an interval
// per change, one closing the previous, a removed team's quota 0, the quota
// at a time, and the stored object read back (malformed ones refused).
#include "service/control/quota_history.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

Timestamp qh_at(int64_t minute) { return Timestamp::from_millis(minute * 60'000); }

TEST(QuotaHistory, AnIntervalPerChangeClosingThePrevious) {
  std::vector<TeamQuotaInterval> history;
  apply_quota_changes({{"prod", {8, std::nullopt}, qh_at(0), std::nullopt},
                       {"research", {4, 6}, qh_at(0), std::nullopt}},
                      history);
  // No policy any more: every team's quota is 0 from then on; once only.
  const std::vector<TeamQuotaInterval> gone = quota_changes(history, nullptr, qh_at(10));
  ASSERT_EQ(gone.size(), 2u);
  EXPECT_EQ(gone[0].gpus, (TeamQuotaGpus{0, 0}));
  apply_quota_changes(gone, history);
  EXPECT_TRUE(quota_changes(history, nullptr, qh_at(11)).empty());
  EXPECT_EQ(history[0].end, qh_at(10));
  EXPECT_EQ(quota_at(history, "prod", qh_at(-1)), std::nullopt);  // nothing recorded
  EXPECT_EQ(quota_at(history, "prod", qh_at(0)), (TeamQuotaGpus{8, std::nullopt}));
  EXPECT_EQ(quota_at(history, "research", qh_at(9)), (TeamQuotaGpus{4, 6}));
  EXPECT_EQ(quota_at(history, "research", qh_at(10)), (TeamQuotaGpus{0, 0}));
  EXPECT_EQ(quota_at(history, "nobody", qh_at(5)), std::nullopt);
}

TEST(QuotaHistory, StoredObjectsAreReadBackInOrderAndClosed) {
  const TeamQuotaInterval first{"prod", {8, std::nullopt}, qh_at(0), std::nullopt};
  const TeamQuotaInterval second{"prod", {6, 8}, qh_at(20), std::nullopt};
  const ObjectRecord later = team_quota_object(second);
  const ObjectRecord earlier = team_quota_object(first);
  EXPECT_EQ(earlier.kind, kTeamQuotaKind);
  EXPECT_LT(earlier.name, later.name);  // names order by time
  std::vector<TeamQuotaInterval> loaded;
  ASSERT_TRUE(load_team_quota(later, loaded).ok());
  ASSERT_TRUE(load_team_quota(earlier, loaded).ok());
  finish_quota_load(loaded);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0], (TeamQuotaInterval{"prod", {8, std::nullopt}, qh_at(0), qh_at(20)}));
  EXPECT_EQ(loaded[1], second);
  for (const char* bad : {"[]", R"({"team": "prod", "from": 1, "ceilingGpus": null})",
                          R"({"team": "prod", "from": 1, "nominalGpus": 2, "ceilingGpus": "x"})"}) {
    std::vector<TeamQuotaInterval> none;
    const Status refused = load_team_quota({std::string(kTeamQuotaKind), "prod/1", bad}, none);
    EXPECT_EQ(refused.code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_NE(refused.message().find("prod/1"), std::string::npos) << refused.message();
  }
}

}  // namespace
}  // namespace allot
