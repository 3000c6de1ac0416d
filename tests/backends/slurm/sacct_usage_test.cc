// Reading Slurm's accounting of allot's jobs (sacct -o kSacctUsageFormat):
// times as UTC, GPUs from AllocTRES, only allot's jobs that ran.
#include "backends/slurm/sacct_usage.h"

#include <gtest/gtest.h>

namespace allot::slurm {
namespace {

TEST(SacctUsage, ReadsAllotsJobsThatRanWithTheirGpus) {
  const std::string text =
      "41|allot-abc-7|sa-research|2026-12-03T22:31:33|2026-12-03T22:32:03|30|"
      "billing=1,cpu=1,gres/gpu:h100=2,gres/gpu=2,mem=100M,node=1\n"
      "42|allot-abc-8|sa-prod|2026-12-03T23:59:59|2026-12-04T00:00:01|2|"
      "cpu=1,gres/gpu:a100=4,mem=100M\n"
      "43|outside-allot|sa-prod|2026-12-03T22:31:33|2026-12-03T22:32:03|30|gres/gpu=8\n"
      "44|allot-abc-9|sa-prod|None|Unknown|0|\n"
      "45|allot-abc-10|sa-prod|2026-12-03T22:31:33|Unknown|5|gres/gpu=1\n";
  const Result<std::vector<SacctUsage>> usage = parse_sacct_usage(text, "allot-abc-");
  ASSERT_TRUE(usage.ok()) << usage.status().to_string();
  ASSERT_EQ(usage->size(), 2u);
  const Timestamp start = parse_sacct_time("2026-12-03T22:31:33").value();
  EXPECT_EQ(usage->at(0), (SacctUsage{"41", WorkloadId(7), "sa-research", start,
                                      Timestamp::from_millis(start.ms() + 30'000), 30, 2}));
  EXPECT_EQ(usage->at(1).gpus, 4) << "the typed entries when the untyped one is absent";
  EXPECT_EQ(usage->at(1).end.ms() - usage->at(1).start.ms(), 2000) << "across midnight";
}

TEST(SacctUsage, ReadsTimesAsUtc) {
  EXPECT_EQ(parse_sacct_time("1970-01-01T00:00:00"), Timestamp::from_millis(0));
  EXPECT_EQ(parse_sacct_time("2000-03-01T00:00:01"), Timestamp::from_millis(951'868'801'000));
  EXPECT_EQ(parse_sacct_time("Unknown"), std::nullopt);
  EXPECT_EQ(parse_sacct_time("2026-13-01T00:00:00"), std::nullopt);
}

TEST(SacctUsage, AMalformedLineIsAnErrorNamingIt) {
  const Result<std::vector<SacctUsage>> short_line = parse_sacct_usage("41|x|y\n", "allot-");
  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.status().message().find("41|x|y"), std::string::npos);
  const Result<std::vector<SacctUsage>> bad_gpus = parse_sacct_usage(
      "41|allot-7|a|2026-12-03T22:31:33|2026-12-03T22:32:03|30|gres/gpu=two\n", "allot-");
  EXPECT_FALSE(bad_gpus.ok());
}

}  // namespace
}  // namespace allot::slurm
