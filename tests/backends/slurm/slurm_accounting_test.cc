// backends/slurm/slurm_accounting.h: sacctmgr's output (as Slurm 22.05
// prints it) read into values, and TRES lists both ways.
#include "backends/slurm/slurm_accounting.h"

#include <gtest/gtest.h>

namespace allot::slurm {
namespace {

TEST(SlurmAccounting, ReadsAccountAndUserAssociations) {
  const std::string output =
      "root|||1||normal|\n"
      "xr-t1||xr|200|cpu=64,gres/gpu:h100=12,mem=2G|zz-high,zz-low|zz-low\n"
      "xr-t1|root||1||zz-low,zz-high|\n";

  const std::vector<SlurmAssociation> got = parse_associations(output).value();

  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[1], (SlurmAssociation{"xr-t1",
                                      "",
                                      "xr",
                                      200,
                                      {{"cpu", 64}, {"gres/gpu:h100", 12}, {"mem", 2048}},
                                      {"zz-high", "zz-low"},
                                      "zz-low"}));
  EXPECT_EQ(got[2].user, "root");
  EXPECT_EQ(got[2].qos, (std::vector<std::string>{"zz-high", "zz-low"})) << "sorted";
}

TEST(SlurmAccounting, ReadsQosWithPreemptionLowerCased) {
  const std::vector<SlurmQos> got =
      parse_qos("normal|0||cluster|Normal QOS default\nhigh|100|low,mid|REQUEUE|allot:allot\n")
          .value();

  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1], (SlurmQos{"high", 100, {"low", "mid"}, "requeue", "allot:allot"}));
}

TEST(SlurmAccounting, MalformedOutputNamesTheLine) {
  const Result<std::vector<SlurmAssociation>> short_line = parse_associations("root|x\n");
  const Result<std::vector<SlurmAssociation>> bad_tres =
      parse_associations("a||root|1|gres/gpu=many||\n");

  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.status().message().find("\"root|x\": expected 7 fields"), std::string::npos);
  ASSERT_FALSE(bad_tres.ok());
  EXPECT_NE(bad_tres.status().message().find("TRES gres/gpu: \"many\" is not a whole number"),
            std::string::npos)
      << bad_tres.status().message();
}

TEST(SlurmAccounting, TresRoundTripsWithMemoryInMebibytes) {
  EXPECT_EQ(parse_tres("mem=1T,cpu=4").value(), (TresMap{{"cpu", 4}, {"mem", 1 << 20}}));
  EXPECT_EQ(format_tres({{"mem", 1000}, {"gres/gpu", 3}, {"node", -1}}),
            "gres/gpu=3,mem=1000M,node=-1");
  EXPECT_FALSE(parse_tres("gpu").ok());
}

}  // namespace
}  // namespace allot::slurm
