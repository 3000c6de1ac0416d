// The guarantee tracker's bounded-reclaim search (bounded_reclaim.h): which
// violated cycles a reclaim within Kueue's per-team bound could have served.
#include "service/simulation/bounded_reclaim.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "one_pod_workload.h"
#include "scheduler/plan.h"
#include "scheduler/snapshot.h"
#include "service/simulation/guarantee_tracker.h"
#include "violation_class_forms.h"

namespace allot {
namespace {

using testing::fits_by_bounded_reclaim;
using testing::fits_without_borrowers;

// A reclaim within Kueue's bound (bounded_reclaim.h): another team's work is
// taken only while that team uses more than its nominal. Two 8-GPU nodes;
// team 0 (nominal 16) runs nothing and asks; team 1 (nominal `nominal1`)
// runs the jobs given.
TEST(BoundedReclaim, TakesATeamsWorkOnlyWhileItIsAboveItsNominal) {
  const std::vector<GuaranteeNode> nodes = {{FlavorIndex(0), 8, true}, {FlavorIndex(0), 8, true}};
  const std::vector<FlavorIndex> flavors = {FlavorIndex(0)};
  uint64_t next_id = 1;
  const auto running = [&](uint32_t team, int64_t gpus, uint32_t node) {
    return testing::one_pod_running(next_id++, team, gpus, node);
  };
  const auto asking = [](int32_t pods) {
    PendingWorkload w;
    w.id = WorkloadId(100);
    w.team = TeamIndex(0);
    PodSetRequest set;
    set.count = pods;
    set.per_pod[Resource::kGpu] = 8;
    w.pod_sets.push_back(set);
    return w;
  };
  const auto judge = [&](const Snapshot& snapshot, const Plan& plan, int32_t pods,
                         int64_t nominal1) {
    const std::vector<int64_t> nominal = {16, nominal1};
    const bool without = fits_without_borrowers(snapshot, plan, asking(pods), nominal, nodes,
                                                flavors, Resource::kGpu);
    const bool bounded = fits_by_bounded_reclaim(snapshot, plan, asking(pods), nominal, nodes,
                                                 flavors, Resource::kGpu);
    EXPECT_TRUE(without || !bounded);  // the bounded reclaim never finds more room
    return bounded;
  };
  Snapshot snapshot;
  // Team 1 is 1 GPU above its nominal 8: four 1-GPU jobs on node 0, one 5-GPU job on node 1.
  for (int i = 0; i < 4; ++i) snapshot.admitted.push_back(running(1, 1, 0));
  snapshot.admitted.push_back(running(1, 5, 1));
  EXPECT_TRUE(judge(snapshot, {}, 1, 8));   // node 1, its one job taken last
  EXPECT_FALSE(judge(snapshot, {}, 2, 8));  // both nodes would take it 6 below its nominal
  EXPECT_TRUE(judge(snapshot, {}, 2, 4));   // 5 above: all but the last taken while above
  // Node 1's job split in five 1-GPU jobs: each node needs four or five taken.
  snapshot.admitted.pop_back();
  for (int i = 0; i < 5; ++i) snapshot.admitted.push_back(running(1, 1, 1));
  EXPECT_FALSE(judge(snapshot, {}, 1, 8));
  EXPECT_TRUE(judge(snapshot, {}, 1, 5));  // 4 above: node 0's four (three, then the last)
  // A team's largest job is taken last: its 8-GPU job on node 1 and its 1-GPU
  // job on node 0, 2 GPUs above its nominal 7. Kueue's walk taking the 8 GPUs
  // first would stop there (the team then within its nominal).
  snapshot.admitted = {running(1, 1, 0), running(1, 8, 1)};
  EXPECT_TRUE(judge(snapshot, {}, 2, 7));
  EXPECT_FALSE(judge(snapshot, {}, 2, 8));  // 1 above: only one of them
  // A victim already stopping is not taken again, nor one the plan chose.
  snapshot.admitted = {running(1, 8, 0), running(1, 8, 1)};  // 16 above its nominal 0
  EXPECT_TRUE(judge(snapshot, {}, 2, 0));
  snapshot.admitted[1].terminating = true;
  EXPECT_FALSE(judge(snapshot, {}, 2, 0));
  EXPECT_TRUE(judge(snapshot, {}, 1, 0));  // node 0's job is left
  snapshot.admitted[1].terminating = false;
  Plan plan;
  plan.preemptions.push_back({snapshot.admitted[0].id, WorkloadId(99),
                              PreemptionReason::kReclaimWithinCohort, Duration::seconds(30)});
  EXPECT_FALSE(judge(snapshot, plan, 2, 0));  // node 0's job goes to another workload
  EXPECT_TRUE(judge(snapshot, plan, 1, 0));   // node 1's is left
}

// Room the cycle's plan gave to other work: an admission within its team's
// nominal holds its node; a borrowing one may be taken back.
TEST(BoundedReclaim, JudgesAfterThePlansAdmissions) {
  const std::vector<GuaranteeNode> nodes = {{FlavorIndex(0), 8, true}};
  const std::vector<FlavorIndex> flavors = {FlavorIndex(0)};
  Snapshot snapshot;
  const auto pending = [](uint64_t id, uint32_t team) {
    PendingWorkload w;
    w.id = WorkloadId(id);
    w.team = TeamIndex(team);
    PodSetRequest set;
    set.per_pod[Resource::kGpu] = 8;
    w.pod_sets.push_back(set);
    return w;
  };
  snapshot.pending = {pending(1, 0), pending(2, 1)};
  Plan plan;
  Admission admission;
  admission.workload = WorkloadId(2);
  admission.assignment.push_back({1, {PodPlacement{NodeIndex(0), 0}}});
  admission.usage[Resource::kGpu] = 8;
  plan.admissions.push_back(admission);
  const auto bounded = [&](int64_t nominal1) {
    return fits_by_bounded_reclaim(snapshot, plan, snapshot.pending[0], {8, nominal1}, nodes,
                                   flavors, Resource::kGpu);
  };
  EXPECT_FALSE(bounded(8));  // team 1's job is within its nominal: the node is its
  // The other classes judge after the plan too: the room went to work within nominal.
  EXPECT_FALSE(fits_without_borrowers(snapshot, plan, snapshot.pending[0], {8, 8}, nodes, flavors,
                                      Resource::kGpu));
  EXPECT_TRUE(fits_without_borrowers(snapshot, plan, snapshot.pending[0], {8, 0}, nodes, flavors,
                                     Resource::kGpu));
  EXPECT_TRUE(fits_without_borrowers(snapshot, {}, snapshot.pending[0], {8, 8}, nodes, flavors,
                                     Resource::kGpu));
  EXPECT_TRUE(bounded(0));  // team 1 borrowed all 8: the reclaim may take them back
  EXPECT_TRUE(fits_by_bounded_reclaim(snapshot, {}, snapshot.pending[0], {8, 8}, nodes, flavors,
                                      Resource::kGpu));  // before the plan: free
}

// Room the plan holds for another workload is no room for this one: a node
// it keeps drained, or room it promises in a handover. Its own is; a gang's
// reservation with a start is not judged.
TEST(BoundedReclaim, RoomHeldForAnotherWorkloadIsNoRoom) {
  const std::vector<GuaranteeNode> nodes = {{FlavorIndex(0), 8, true}};
  const std::vector<FlavorIndex> flavors = {FlavorIndex(0)};
  Snapshot snapshot;
  const auto eight_gpus = [](uint64_t id) {
    PendingWorkload w;
    w.id = WorkloadId(id);
    w.team = TeamIndex(0);
    PodSetRequest set;
    set.per_pod[Resource::kGpu] = 8;
    w.pod_sets.push_back(set);
    return w;
  };
  snapshot.pending = {eight_gpus(1), eight_gpus(2)};
  const PendingWorkload& owed = snapshot.pending[0];
  const auto room = [&](const Plan& plan) {
    const bool without =
        fits_without_borrowers(snapshot, plan, owed, {8, 0}, nodes, flavors, Resource::kGpu);
    const bool bounded =
        fits_by_bounded_reclaim(snapshot, plan, owed, {8, 0}, nodes, flavors, Resource::kGpu);
    EXPECT_EQ(without, bounded);
    return bounded;
  };
  const auto reserved = [](uint64_t holder, Timestamp starts_at) {
    Plan plan;
    plan.reservations.push_back({WorkloadId(holder), FlavorIndex(0), {NodeIndex(0)}, starts_at});
    return plan;
  };
  const auto promised = [](uint64_t to) {
    Plan plan;
    Handover handover;
    handover.workload = WorkloadId(to);
    handover.flavor = FlavorIndex(0);
    handover.assignment = {{1, {PodPlacement{NodeIndex(0), 0}}}};
    plan.handovers.push_back(handover);
    return plan;
  };
  EXPECT_FALSE(room(reserved(2, Timestamp::infinite_future())));     // drained for another
  EXPECT_TRUE(room(reserved(1, Timestamp::infinite_future())));      // its own drain
  EXPECT_TRUE(room(reserved(2, Timestamp() + Duration::hours(1))));  // a gang's reservation
  EXPECT_FALSE(room(promised(2)));                                   // promised to another
  EXPECT_TRUE(room(promised(1)));                                    // promised to it
  EXPECT_TRUE(room({}));
}

}  // namespace
}  // namespace allot
