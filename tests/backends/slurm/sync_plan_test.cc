// backends/slurm/sync_plan.h: allot's policy as sacctmgr changes, planned
// against Slurm's accounting as read back (pure; no Slurm needed).
#include "backends/slurm/sync_plan.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace allot::slurm {
namespace {

// org { research { vision (h100 12 GPUs), nlp (h100 32) } }, prod (h100 16)
BackendPolicy one_flavor_policy() {
  BackendPolicy p;
  p.root = "allot";
  p.flavors = {"h100"};
  p.cohorts = {{"research", "org"}, {"org", ""}};  // a child listed before its parent
  SyncedTeam vision;
  vision.team = TeamId("vision");
  vision.parent = "research";
  vision.fair_share_weight = 2.0;
  vision.ceiling = {{"h100", Resource::kGpu, 12}, {"h100", Resource::kCpu, 95'500}};
  vision.priority_classes = {"batch"};
  vision.users = {"alice"};
  SyncedTeam nlp;
  nlp.team = TeamId("nlp");
  nlp.parent = "research";
  nlp.ceiling = {{"h100", Resource::kGpu, 32}};
  p.teams = {vision, nlp};
  p.priority_classes = {{"batch", -10, true}, {"production", 1000, true}, {"polite", 500, false}};
  return p;
}

std::vector<std::string> lines(const SyncPlan& plan) {
  std::vector<std::string> out;
  for (const SacctmgrChange& change : plan.changes) out.push_back(change.command_line());
  return out;
}

// Slurm after the plan's changes: what desired_accounting() says, as Slurm reads it back.
SlurmAccounting synced_state(const BackendPolicy& policy) {
  SlurmAccounting state = desired_accounting(policy);
  state.associations.insert(state.associations.begin(), {"root", "", "", 1, {}, {"normal"}, ""});
  state.qos.insert(state.qos.begin(), {"normal", 0, {}, "cluster", "Normal QOS default"});
  return state;
}

const SlurmAccounting kEmptySlurm = {
    {{"root", "", "", 1, {}, {"normal"}, ""}, {"root", "root", "", 1, {}, {"normal"}, ""}},
    {{"normal", 0, {}, "cluster", "Normal QOS default"}}};

TEST(SyncPlan, OnAnEmptySlurmCreatesQosThenAccountsParentsFirstThenUsersThenPreemption) {
  const SyncPlan plan = plan_sync(one_flavor_policy(), kEmptySlurm, "c1", {}).value();

  EXPECT_EQ(lines(plan),
            (std::vector<std::string>{
                "sacctmgr -i add qos batch Priority=0 PreemptMode=requeue Description=allot:allot",
                "sacctmgr -i add qos production Priority=1010 PreemptMode=requeue "
                "Description=allot:allot",
                "sacctmgr -i add qos polite Priority=510 PreemptMode=requeue "
                "Description=allot:allot",
                "sacctmgr -i add account allot Cluster=c1 Parent=root Fairshare=100 "
                "Description=allot Organization=allot QOS=batch,polite,production",
                "sacctmgr -i add account org Cluster=c1 Parent=allot Fairshare=100 "
                "Description=allot Organization=allot QOS=batch,polite,production",
                "sacctmgr -i add account research Cluster=c1 Parent=org Fairshare=100 "
                "Description=allot Organization=allot QOS=batch,polite,production",
                "sacctmgr -i add account vision Cluster=c1 Parent=research Fairshare=200 "
                "Description=allot Organization=allot GrpTRES=cpu=96,gres/gpu=12 QOS=batch "
                "DefaultQOS=batch",
                "sacctmgr -i add account nlp Cluster=c1 Parent=research Fairshare=100 "
                "Description=allot Organization=allot GrpTRES=gres/gpu=32 "
                "QOS=batch,polite,production DefaultQOS=batch",
                "sacctmgr -i add user alice Account=vision Cluster=c1",
                "sacctmgr -i modify qos where name=production set Preempt=batch,polite",
            }))
      << "polite (preemptionPolicy Never) preempts nothing; CPUs round up to whole CPUs";
  EXPECT_TRUE(plan.drift.empty()) << "creating what allot manages is not drift";
}

TEST(SyncPlan, ReplanningTheStateItProducedChangesNothing) {
  const SyncPlan plan =
      plan_sync(one_flavor_policy(), synced_state(one_flavor_policy()), "c1", {}).value();

  EXPECT_TRUE(plan.changes.empty()) << lines(plan).front();
  EXPECT_TRUE(plan.drift.empty());
}

TEST(SyncPlan, SeveralFlavorsLimitTypedGresAndSumCpusAndMemory) {
  BackendPolicy p = one_flavor_policy();
  p.flavors = {"a100", "h100"};
  p.teams[1].ceiling = {{"a100", Resource::kGpu, 8},
                        {"a100", Resource::kMemory, int64_t{1} << 30},
                        {"h100", Resource::kGpu, 4},
                        {"h100", Resource::kMemory, (int64_t{1} << 30) + 1}};

  const SlurmAccounting desired = desired_accounting(p);

  const auto nlp = std::find_if(desired.associations.begin(), desired.associations.end(),
                                [](const SlurmAssociation& a) { return a.account == "nlp"; });
  ASSERT_NE(nlp, desired.associations.end());
  EXPECT_EQ(nlp->grp_tres, (TresMap{{"gres/gpu:a100", 8}, {"gres/gpu:h100", 4}, {"mem", 2049}}))
      << "memory in MiB, rounded up, summed over flavors";
}

TEST(SyncPlan, AChangeMadeByHandIsDriftAndIsUndone) {
  SlurmAccounting slurm = synced_state(one_flavor_policy());
  for (SlurmAssociation& a : slurm.associations) {
    if (a.account == "vision" && a.user.empty()) a.grp_tres = {{"gres/gpu", 20}, {"node", 2}};
    if (a.account == "nlp" && a.user.empty()) a.parent = "allot";
  }
  slurm.qos[2].preempt = {};  // production (index 0 is normal)

  const SyncPlan plan = plan_sync(one_flavor_policy(), slurm, "c1", {}).value();

  EXPECT_EQ(plan.drift,
            (std::vector<std::string>{
                "account vision: GrpTRES gres/gpu=20,node=2 in Slurm, "
                "cpu=96,gres/gpu=12 in allot's policy",
                "account nlp: Parent allot in Slurm, research in allot's policy",
                "qos production: Preempt (none) in Slurm, batch,polite in allot's policy",
            }));
  EXPECT_EQ(lines(plan),
            (std::vector<std::string>{
                "sacctmgr -i modify account where name=vision cluster=c1 set "
                "GrpTRES=cpu=96,gres/gpu=12,node=-1",
                "sacctmgr -i modify account where name=nlp cluster=c1 set Parent=research",
                "sacctmgr -i modify qos where name=production set Preempt=batch,polite",
            }));
}

TEST(SyncPlan, ATeamThatLeftIsRemovedOrKeptAtZeroGpusWhileItHasJobs) {
  BackendPolicy p = one_flavor_policy();
  const SlurmAccounting slurm = synced_state(p);
  p.teams.pop_back();  // nlp leaves

  const SyncPlan idle = plan_sync(p, slurm, "c1", {}).value();
  const SyncPlan busy = plan_sync(p, slurm, "c1", {"nlp"}).value();

  EXPECT_EQ(lines(idle),
            (std::vector<std::string>{"sacctmgr -i delete account where name=nlp cluster=c1"}));
  EXPECT_TRUE(idle.deferred.empty());
  EXPECT_EQ(lines(busy),
            (std::vector<std::string>{"sacctmgr -i modify account where name=nlp cluster=c1 set "
                                      "GrpTRES=gres/gpu=0"}));
  EXPECT_EQ(busy.deferred, (std::vector<std::string>{"nlp"}));
  EXPECT_EQ(busy.drift, (std::vector<std::string>{
                            "account nlp: under \"allot\" in Slurm but not in allot's policy"}));
}

TEST(SyncPlan, ACohortThatLeftGoesAfterItsTeamsAndAnUnusedQosIsDeleted) {
  BackendPolicy p = one_flavor_policy();
  const SlurmAccounting slurm = synced_state(p);
  p.cohorts = {{"org", ""}};
  p.teams.clear();
  p.priority_classes.pop_back();  // polite

  EXPECT_EQ(lines(plan_sync(p, slurm, "c1", {}).value()),
            (std::vector<std::string>{
                "sacctmgr -i modify account where name=allot cluster=c1 set QOS=batch,production",
                "sacctmgr -i modify account where name=org cluster=c1 set QOS=batch,production",
                "sacctmgr -i modify qos where name=production set Preempt=batch",
                "sacctmgr -i delete account where name=nlp cluster=c1",
                "sacctmgr -i delete account where name=vision cluster=c1",
                "sacctmgr -i delete account where name=research cluster=c1",
                "sacctmgr -i delete qos where name=polite",
            }));
}

TEST(SyncPlan, TheSitesOwnAccountsAndQosAreLeftAlone) {
  SlurmAccounting slurm = synced_state(one_flavor_policy());
  slurm.associations.push_back({"physics", "", "root", 5, {{"gres/gpu", 3}}, {"normal"}, ""});
  slurm.qos.push_back({"site-urgent", 9, {}, "cancel", "the site's"});

  const SyncPlan plan = plan_sync(one_flavor_policy(), slurm, "c1", {}).value();

  EXPECT_TRUE(plan.changes.empty());
  EXPECT_TRUE(plan.drift.empty());
}

TEST(SyncPlan, ATeamNamedLikeASiteAccountOutsideTheRootIsRefused) {
  SlurmAccounting slurm = kEmptySlurm;
  slurm.associations.push_back({"vision", "", "root", 1, {}, {"normal"}, ""});

  const Result<SyncPlan> plan = plan_sync(one_flavor_policy(), slurm, "c1", {});

  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(plan.status().message().find("\"vision\" exists outside allot's root account"),
            std::string::npos)
      << plan.status().message();
}

TEST(SyncPlan, ManagedPartIsTheRootSubtreeAndAllotsQos) {
  SlurmAccounting slurm = synced_state(one_flavor_policy());
  slurm.associations.push_back({"physics", "", "root", 5, {}, {}, ""});

  const SlurmAccounting mine = managed_part(slurm, "allot");

  EXPECT_EQ(mine.associations.size(), 6u) << "allot, org, research, vision, nlp, alice@vision";
  EXPECT_EQ(mine.qos.size(), 3u);
}

}  // namespace
}  // namespace allot::slurm
