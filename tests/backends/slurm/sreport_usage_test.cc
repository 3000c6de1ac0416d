// Reading Slurm's own report of GPU time per account (sreport cluster
// AccountUtilizationByUser, format kSreportUsageFormat, seconds): the
// accounts' lines of gres/gpu, users' lines left out, bad lines named.
#include "backends/slurm/sreport_usage.h"

#include <gtest/gtest.h>

#include "backends/slurm/sacct_usage.h"

namespace allot::slurm {
namespace {

TEST(SreportUsage, ReadsEachAccountsGpuSecondsAndLeavesUsersAndOtherTresOut) {
  const std::string text =
      "root||gres/gpu|8\n"
      "sa-research||gres/gpu|6\n"
      "sa-research|root|gres/gpu|6\n"
      "sa-prod||cpu|40\n"
      "sa-prod||gres/gpu|2\n"
      "\n";
  const Result<std::vector<BackendAccountUsage>> usage = parse_sreport_usage(text);
  ASSERT_TRUE(usage.ok()) << usage.status().to_string();
  EXPECT_EQ(*usage,
            (std::vector<BackendAccountUsage>{{"root", 8}, {"sa-research", 6}, {"sa-prod", 2}}));
  EXPECT_TRUE(parse_sreport_usage("").value().empty()) << "no account used anything";
}

TEST(SreportUsage, ABadLineIsAnErrorNamingIt) {
  const Result<std::vector<BackendAccountUsage>> fields = parse_sreport_usage("root||gres/gpu\n");
  EXPECT_EQ(fields.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(fields.status().message().find("sreport line 1"), std::string::npos);
  for (const char* used : {"12.5", "", "-3", "8%", "1e3"}) {
    const Result<std::vector<BackendAccountUsage>> bad =
        parse_sreport_usage(std::string("root||gres/gpu|1\nsa-prod||gres/gpu|") + used + "\n");
    EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument) << used;
    EXPECT_NE(bad.status().message().find("sreport line 2"), std::string::npos) << used;
    EXPECT_NE(bad.status().message().find("Used"), std::string::npos) << used;
  }
  EXPECT_EQ(parse_sreport_usage("|root|gres/gpu|1\n").status().code(), ErrorCode::kInvalidArgument);
}

TEST(SreportUsage, AsksForWholeHoursInSlurmsTimeFormat) {
  const Timestamp from = parse_sacct_time("2026-12-07T03:00:00").value();
  const Timestamp to = parse_sacct_time("2026-12-08T00:00:00").value();
  EXPECT_EQ(slurm_time_text(from), "2026-12-07T03:00:00");
  EXPECT_EQ(slurm_time_text(Timestamp::from_millis(to.ms() + 999)), "2026-12-08T00:00:00");
  EXPECT_EQ(slurm_time_text(Timestamp::from_millis(0)), "1970-01-01T00:00:00");
  EXPECT_EQ(sreport_usage_args("allot", from, to),
            (std::vector<std::string>{"sreport", "-n", "-P", "-t", "seconds", "-T", "gres/gpu",
                                      "cluster", "AccountUtilizationByUser", "cluster=allot",
                                      "start=2026-12-07T03:00:00", "end=2026-12-08T00:00:00",
                                      "format=Account,Login,TresName,Used"}));
}

}  // namespace
}  // namespace allot::slurm
