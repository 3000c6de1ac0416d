// VictimSelector: chooses a minimal set of running workloads to preempt so
// that a pending workload fits, as each team's preemption policy allows
// (DESIGN.md section 3, "Preemption"; Kueue's semantics, pkg/scheduler/preemption).
//
// Candidates: lower-priority work of the preemptor's own team (withinTeam),
// and, under reclaimWithinCohort, work of other teams of its cohort tree that
// use more than their quota of a contested resource. Never a workload younger
// than its class's minRuntime, never one already stopping, never the workload
// that last preempted the preemptor (no loops).
//
// Classic mode (Kueue's classical preemption): other teams' work comes first,
// the work the preemptor has a hierarchical advantage over (cohort_reclaim.h)
// before the rest, then its own team's; within each, lower priority, least
// work lost (since the last checkpoint of the current run, else since its
// start: the most recently started first), then most recently started. Work that the
// borrowWithinCohort policy does not open to a borrowing preemptor may be
// taken only in a pass where the preemptor must end within its nominal; the
// pass that allows borrowing and the one that does not are both tried. A
// cross-team candidate is skipped once its team (or a cohort between it and
// the common ancestor) no longer uses more than its quota.
//
// Fair sharing (Kueue's first fair-sharing strategy only): one victim at a
// time from the team with the highest weighted share, chosen at each level of
// the cohort tree, recomputed after each removal; a victim only while the
// preemptor's share after admission stays at or below the victim side's share
// after the removal (shares compared at the children of their lowest common
// ancestor). A preemptor that stays within its nominal skips the share test
// (Kueue's FairSharingPreemptWithinNominal).
//
// Both modes remove candidates until the preemptor fits quota and nodes, then
// put back, latest first, each one that turns out unneeded: no victim can be
// spared. In classic mode, when that walk fails (typically: it took one
// victim on each of several nodes, and their teams came back within quota
// before any node had room for the preemptor's pod), the candidates of one
// node are walked alone, for the few nodes (at most 4, most room first) whose
// free GPUs plus those of the candidates running only there would hold the
// preemptor's largest pod (so a node's victims that do not also meet the
// preemptor's quota are not combined with others'). For a gang of several
// pods, the candidates of the nodes with the most room (a few more nodes than
// the gang has pods) are then walked node by node, so that whole nodes are
// cleared (gang_node_first.cc). Last, the nodes where the candidates could
// make room for one of the preemptor's largest pods, each cleared alone
// within the teams' bounds, are combined (one per pod, with backtracking)
// until the preemptor fits (node_clearing.cc): a node that its teams' quota
// keeps from being cleared no longer hides the nodes that can be.
//
// Searches known to fail (victim_search_shortcut.cc): some searches cannot
// succeed whatever candidates exist, and stop at the first candidate with the
// verdict the full walk would give. Classic mode: no candidate may be taken
// while the preemptor borrows (no own-team work, no hierarchical advantage, no
// borrowWithinCohort) and it borrows even once every other team's work is gone
// (its own usage alone decides that). Fair sharing in a flat cohort (teams
// only, right under the root): the preemptor's share after admission is above
// every other team's share now, and removals only lower a team's share, so
// every candidate is refused. The answers equal those of the full search
// (pinned by VictimSelectorProperties.ShortcutsAnswerAsTheFullSearch).
//
// Contract: find() leaves the QuotaTree and CapacityIndex as it found them.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scheduler/capacity_index.h"
#include "scheduler/cohort_reclaim.h"
#include "scheduler/gang_placer.h"
#include "scheduler/plan.h"
#include "scheduler/quota_tree.h"

namespace allot {

struct VictimChoice {
  PreemptionVerdict verdict = PreemptionVerdict::kNoCandidates;
  std::vector<std::pair<uint32_t, PreemptionReason>> victims;  // index into admitted
  // The preemptor must stay within its nominal once the victims are gone
  // (the victims include work taken only on that condition).
  bool within_nominal = false;
};

class VictimSelector {
 public:
  // `unavailable[i]` marks admitted workloads that may not be chosen
  // (already stopping, or chosen earlier this cycle).
  VictimSelector(QuotaTree& quota, CapacityIndex& capacity,
                 const std::vector<AdmittedWorkload>& admitted,
                 const std::vector<bool>& unavailable, Timestamp now);

  [[nodiscard]] VictimChoice find(const PendingWorkload& preemptor, FlavorIndex flavor,
                                  const ResourceVector& total, std::span<const int32_t> counts);
  // Gives back the quota and node capacity of an admitted workload (a victim
  // that stops at once, having no grace period).
  void release(uint32_t index) { remove(index); }
  // For tests: off, every search walks its candidates (the plain path), and
  // every above-quota test reads the usage instead of the quota tree's kept
  // over_quota().
  void use_shortcuts(bool on) { shortcuts_ = on; }
  // For tests: off, each fair-sharing victim round walks every child from the
  // root (the plain path) instead of reading the kept heaps of children.
  void use_share_heaps(bool on) { share_heaps_ = on; }
  // For tests: off, classic collect() judges each other team from its own
  // quota node up (the plain path) instead of through its cohort's view, and
  // every above-quota test reads the usage instead of the quota tree's kept
  // over_quota().
  void use_cohort_views(bool on) { cohort_views_on_ = on; }
  // How many fair-sharing victim rounds the kept heaps answered (for tests).
  [[nodiscard]] int64_t heap_rounds() const { return heap_rounds_; }
  // How many searches a shortcut answered.
  [[nodiscard]] int64_t shortcuts_taken() const { return shortcuts_taken_; }
  // How many fits() the latches answered without the placer (for tests).
  [[nodiscard]] int64_t fits_latched() const { return fits_latched_; }
  // How many times take_by_share() refused a target's remaining candidates at once.
  [[nodiscard]] int64_t teams_refused_whole() const { return teams_refused_whole_; }
  // How many searches the gang node-first walk answered (for tests).
  [[nodiscard]] int64_t gang_walks_won() const { return gang_walks_won_; }
  // How many searches the node-clearing search answered (for tests).
  [[nodiscard]] int64_t node_clearing_wins() const { return node_clearing_wins_; }

 private:
  // find() without restoring the quota's usage mark.
  [[nodiscard]] VictimChoice search(const PendingWorkload& preemptor, FlavorIndex flavor,
                                    const ResourceVector& total, std::span<const int32_t> counts);
  // Why a candidate may be taken (Kueue's preemption variants).
  enum class Variant : uint8_t {
    kWithinTeam,        // lower-priority work of the preemptor's team
    kHierarchical,      // the preemptor fits a subtree quota the victim's team borrows from
    kWithoutBorrowing,  // only if the preemptor then stays within its nominal
    kWhileBorrowing,    // borrowWithinCohort: even while the preemptor borrows
    kFairShare,         // fair sharing: judged by weighted shares
  };
  struct Candidate {
    uint32_t index = 0;
    Variant variant = Variant::kWithinTeam;
    int32_t lca = 0;  // lowest cohort holding the victim's and the preemptor's teams
    TeamIndex team;   // the victim's (read with the candidate, not from the workload)
  };
  // What one find() works with.
  struct Request {
    const PendingWorkload& preemptor;
    FlavorIndex flavor;
    const ResourceVector& total;
    std::span<const int32_t> counts;
    const CohortReclaim& reclaim;
    const TeamPreemption& rules;  // the preemptor's team's (read once, not per slot)
  };

  // What collect() reads of an admitted workload, kept contiguous in
  // preference order so that the scan over a group stays in cache.
  struct Slot {
    uint32_t index = 0;  // into admitted
    TeamIndex team;
    int32_t priority = 0;
    WorkloadId id;
    Timestamp ripe;           // admitted_at + its class's minRuntime
    bool guaranteed = false;  // an endpoint's guaranteed replica (never another team's victim)
  };

  // Searches known to fail, and the verdict they end with.
  enum class Shortcut : uint8_t {
    kNone,
    kClassicInsufficient,  // found once any candidate exists
    kFairShareRefused,     // found once another team with a positive share offers one
  };
  [[nodiscard]] Shortcut known_to_fail(const Request& r);
  [[nodiscard]] bool classic_known_to_fail(const Request& r) const;
  [[nodiscard]] bool fair_share_known_to_fail(const Request& r);
  // Whether the tree under `root` holds only teams, each right under it.
  [[nodiscard]] bool flat_tree(int32_t root);
  [[nodiscard]] bool positive_share(TeamIndex team);
  // With a shortcut, stops at the first candidate that settles it (*settled).
  std::vector<Candidate> collect(const Request& r, bool* too_young, bool* any_allowed,
                                 Shortcut shortcut, bool* settled);
  [[nodiscard]] bool cross_team_candidate(const Request& r, const Slot& w, Candidate* out);
  // Classic collect(): whether another team's work may be a candidate at all
  // (its relation to the preemptor, and it and its cohorts up to the common
  // one above their quota); fills team_lca_ and team_variant_.
  [[nodiscard]] bool classic_team_open(const Request& r, TeamIndex team);
  [[nodiscard]] bool classic_team_open_plain(const Request& r, TeamIndex team);
  // What classic_team_open() needs of a team's cohort, the same for every
  // team of the cohort: worked out once per collect() (stamp).
  struct CohortView {
    uint64_t stamp = 0;
    CohortReclaim::Relation relation;
    bool chain_above = false;  // it and its cohorts below relation.lca are above their quota
  };
  const CohortView& cohort_view(const Request& r, int32_t cohort);
  [[nodiscard]] bool find_classic(const Request& r, const std::vector<Candidate>& candidates,
                                  VictimChoice* choice);
  [[nodiscard]] bool classic_pass(const Request& r, const std::vector<Candidate>& candidates,
                                  bool allow_borrowing, VictimChoice* choice);
  // One greedy walk of `order`: take each candidate still open until the preemptor fits.
  [[nodiscard]] bool greedy_pass(const Request& r, const std::vector<Candidate>& order,
                                 bool allow_borrowing, VictimChoice* choice);
  // After a failed greedy walk: walks the candidates of one node alone.
  [[nodiscard]] bool node_first_passes(const Request& r, const std::vector<Candidate>& candidates,
                                       bool allow_borrowing, VictimChoice* choice);
  // After a failed greedy walk, for a gang of several pods: walks the
  // candidates of the nodes with the most room, node by node (gang_node_first.cc).
  [[nodiscard]] bool gang_node_first_pass(const Request& r,
                                          const std::vector<Candidate>& candidates,
                                          bool allow_borrowing, VictimChoice* choice);
  // After the walks above failed: the nodes that can be cleared alone within
  // the teams' bounds, combined until the preemptor fits (node_clearing.cc).
  [[nodiscard]] bool node_clearing_pass(const Request& r, const std::vector<Candidate>& candidates,
                                        bool allow_borrowing, VictimChoice* choice);
  [[nodiscard]] static PreemptionReason reason_for(const Candidate& c);
  // Whether `c` may be taken now (its variant, and Kueue's bound for another team's work).
  [[nodiscard]] bool open_now(const Request& r, const Candidate& c, bool allow_borrowing) const;
  // Adds `c` to `kept` when all can be taken in some order, each open when
  // taken (a team's smallest work first); else leaves `kept` as it was.
  bool add_victim(const Request& r, const Candidate& c, bool allow_borrowing,
                  std::vector<Candidate>* kept);
  // Puts back `from` (latest first) and takes `to`, in its order.
  void retake(const std::vector<Candidate>& from, const std::vector<Candidate>& to);
  struct ClearingWalk;  // node_clearing.cc
  bool clear_node(const Request& r, ClearingWalk& walk, size_t k);
  void back_to(ClearingWalk& walk, const std::vector<Candidate>& before);
  bool clear_from(const Request& r, ClearingWalk& walk, size_t from, size_t depth);
  // The first `keep` of the `touched` nodes (their freeable_gpus_ summed)
  // whose free plus freeable GPUs could hold a pod of `largest_pod` GPUs, most
  // room first (ties by node); resets every touched node's freeable_gpus_ to -1.
  std::vector<std::pair<NodeIndex, int64_t>> nodes_by_room(const std::vector<NodeIndex>& touched,
                                                           int64_t largest_pod, size_t keep);
  [[nodiscard]] bool find_fair_share(const Request& r, const std::vector<Candidate>& candidates,
                                     VictimChoice* choice);
  // Fair sharing, the plain path: buckets collect()'s candidates by team.
  std::vector<int32_t> index_fair_share_candidates(const std::vector<Candidate>& candidates);
  // Fair sharing, the fast path (fair_share_candidates.cc): the candidates
  // of each team read from the group's slots by team, skipping teams that
  // cannot lose work, bucketed as index_fair_share_candidates() would.
  std::vector<Candidate> collect_fair_share(const Request& r, bool* too_young, bool* any_allowed,
                                            Shortcut shortcut, bool* settled);
  [[nodiscard]] bool fair_share_team_open(const Request& r, TeamIndex team);
  [[nodiscard]] bool fair_share_slot_open(const Request& r, const Slot& w, bool own, Candidate* c);
  void reset_fair_share_search();
  // Lists the teams (in the order of their best candidate) under their
  // cohorts; returns the cohorts whose lists were filled.
  std::vector<int32_t> register_fair_share_teams(const std::vector<int32_t>& team_nodes);
  // A group's slots by team, each team's in the group's order: copied
  // contiguously with what each workload holds, so that a search reads a
  // team's work in one sequential walk.
  struct TeamSlots {
    std::vector<int32_t> teams;       // teams with work in the group, ascending
    std::vector<uint32_t> begin;      // by listed team, into the arrays below (one more at the end)
    std::vector<uint32_t> positions;  // into the group
    std::vector<Slot> slots;          // slots[i] is the group's slot positions[i]
    std::vector<ResourceVector> held;  // what slots[i]'s workload holds, once held_known[i]
    std::vector<uint8_t> held_known;
    // By slot: the least of each resource that slots[i] and the later slots
    // of its team hold, once least_known[] of its listed team (filled when
    // take_by_share() first looks at one of the team's candidates).
    std::vector<ResourceVector> least_from;
    std::vector<uint8_t> least_known;  // by listed team
  };
  // The least that by-team slot `slot` and its team's later slots hold of each resource.
  const ResourceVector& least_from(TeamSlots& by_team, uint32_t slot);
  TeamSlots& team_slots(const std::vector<Slot>& slots);
  // What candidate `pos` of this search holds: on the fast path from the
  // group's by-team slots (filled when first read), else from held().
  const ResourceVector& candidate_usage(uint32_t pos, const std::vector<Candidate>& candidates);
  [[nodiscard]] bool take_by_share(const Request& r, int32_t target,
                                   const std::vector<Candidate>& candidates, VictimChoice* choice);
  // Fair sharing: the team at the end of the highest-share path from `cohort`
  // down (-1 when that path ended in a pruned cohort, or nothing is left).
  int32_t next_fair_share_target(const Request& r, int32_t cohort);
  // The same target, read from a heap of each cohort's children by share
  // (fair_share_target_heap.cc); the chosen path is kept in target_path_ so
  // that refresh_target_path() updates, after the round, the only children
  // whose share or next candidate moved.
  struct ChildEntry {
    double share = 0;
    uint8_t cohort = 0;  // equal shares: a cohort before a team
    int64_t tie = 0;     // then a cohort listed later, or a team's earlier next candidate
    int32_t node = 0;
    bool operator<(const ChildEntry& o) const {
      if (share != o.share) return share < o.share;
      if (cohort != o.cohort) return cohort < o.cohort;
      return tie < o.tie;
    }
  };
  int32_t next_fair_share_target_by_heap(const Request& r, int32_t cohort);
  [[nodiscard]] ChildEntry child_entry(const Request& r, int32_t child);
  [[nodiscard]] bool child_open(const Request& r, const ChildEntry& entry);
  void refresh_target_path(const Request& r);
  void clear_child_heaps(const std::vector<int32_t>& cohorts);
  [[nodiscard]] double current_share(const Request& r, int32_t quota_node);
  // The other flavors' part of a quota node's share (borrowed_ratio_outside), once per search.
  [[nodiscard]] double share_outside(const Request& r, int32_t quota_node);
  // Removes a victim and reports whether the preemptor now fits.
  bool take(const Request& r, const Candidate& c, PreemptionReason reason, bool allow_borrowing,
            VictimChoice* choice);
  // Puts back, latest first, every victim that is not needed, then restores all.
  void minimize(const Request& r, bool allow_borrowing, VictimChoice* choice);
  [[nodiscard]] bool quota_fits(const Request& r, bool allow_borrowing) const;
  [[nodiscard]] bool fits(const Request& r, bool allow_borrowing);
  [[nodiscard]] bool room_for_a_pod(const Request& r, uint32_t index);
  void forget_shares_of(TeamIndex team);
  // What admitted workload `index` holds, computed once per selector.
  const ResourceVector& usage_of(uint32_t index);
  // The node every pod of admitted workload `index` runs on (invalid when
  // they span several), computed once per selector.
  NodeIndex only_node_of(uint32_t index);
  [[nodiscard]] int64_t work_lost(const AdmittedWorkload& w) const;
  void remove(uint32_t index);
  void restore(uint32_t index);
  [[nodiscard]] int32_t root_of(int32_t quota_node) const;
  // Admitted workloads grouped by (root of the cohort tree, flavor), built on
  // first use, in preference order: candidates never come from another tree
  // or flavor.
  const std::vector<Slot>& group(int32_t root, FlavorIndex flavor);

  QuotaTree& quota_;
  CapacityIndex& capacity_;
  const std::vector<AdmittedWorkload>& admitted_;
  const std::vector<bool>& unavailable_;
  Timestamp now_;
  bool grouped_ = false;
  std::unordered_map<uint64_t, std::vector<uint32_t>> groups_;
  std::unordered_map<uint64_t, std::vector<Slot>> sorted_groups_;
  // Per collect(), by team: -1 not known yet, else whether its work may be
  // a cross-team candidate and the relation that says how (kept in team_lca_).
  std::vector<int8_t> team_open_;
  std::vector<int32_t> team_lca_;
  std::vector<Variant> team_variant_;
  std::vector<CohortView> cohort_views_;  // by quota node
  // By team: its quota node and its cohort (kNoParent: none), read by every
  // search from one small array instead of each team's policy record.
  struct TeamNodes {
    int32_t node = 0;
    int32_t cohort = kNoParent;
  };
  std::vector<TeamNodes> team_nodes_;
  uint64_t collect_stamp_ = 0;
  bool cohort_views_on_ = true;
  // Set in find() when the fair-share rule turned a candidate down.
  bool share_refused_ = false;
  // Each filled on its first use: what an admitted workload holds (its
  // team, flavor and usage, and its pods in held_pods_), so that taking and
  // putting back a victim reads two dense arrays instead of the workload.
  struct Held {
    TeamIndex team;
    FlavorIndex flavor;
    uint32_t first_pod = 0;
    uint32_t end_pod = 0;
    ResourceVector usage;
  };
  struct HeldPod {
    NodeIndex node;
    uint64_t gpu_mask = 0;
    ResourceVector per_pod;
  };
  const Held& held(uint32_t index);
  // Whether a pod of admitted workload `index` runs on a node the preemptor was placed on.
  bool any_node_used(uint32_t index);
  // In the order of first use (a search takes and puts back the same few
  // teams' work again and again: their records lie together), reserved for
  // every admitted workload so that a reference held() gave stays valid.
  std::vector<Held> held_;
  // By admitted index: 1 + its place in held_, 0 until first used (a small
  // array, where a Held by admitted index was a cache miss per take).
  std::vector<uint32_t> held_slot_;
  std::vector<HeldPod> held_pods_;
  // By admitted index: see only_node_of(), filled on first use.
  std::vector<NodeIndex> only_node_;
  // By node, per node_first_passes(): GPUs freeable there (-1 between calls).
  std::vector<int64_t> freeable_gpus_;
  // Per find(): nodes the preemptor fits on, from the last successful fits().
  std::vector<NodeIndex> used_nodes_;
  // Latches of fits() within a search, with shortcuts on. Between restores a
  // search only removes work, so the quota available to the preemptor only
  // grows (avail is monotone in every usage, quota_tree.h): once quota_fits()
  // held (with the same allow_borrowing) it holds until a restore. Once the
  // placer failed (or the flavor's free total was short), it fails again while
  // every take since freed only nodes on which no pod of the preemptor fits:
  // the placer puts pods only on nodes they fit on, so a placement found now
  // would use only nodes whose capacity is as it was, would have been a valid
  // placement then (so the free totals it checks held then), and the placer,
  // which chooses among the nodes a pod fits on by their own capacity, would
  // have found it. Both are cleared by restore() and at each find(); remove()
  // clears the placement latch and take() sets it again when its victim freed
  // no room for a pod.
  bool quota_known_to_fit_ = false;
  bool quota_known_allow_ = false;
  bool placement_known_to_fail_ = false;
  int64_t fits_latched_ = 0;
  int64_t teams_refused_whole_ = 0;
  std::vector<uint32_t> removed_;
  // Fair sharing, per find(): candidates by team (cursor into each), the
  // children of each cohort that still hold candidates, pruned quota nodes,
  // and team and cohort shares, recomputed when a team's usage moves.
  std::vector<std::vector<uint32_t>> team_candidates_;
  // By candidate, per find(): its place in preference order (other teams'
  // work first), which breaks ties between teams of equal share.
  std::vector<uint32_t> candidate_rank_;
  // By candidate, per find() on the fast path: its place in search_slots_
  // (whose `held` take_by_share() reads for every candidate it looks at,
  // most of them refused, in one sequential walk per team).
  std::vector<uint32_t> candidate_slot_;
  TeamSlots* search_slots_ = nullptr;
  std::vector<size_t> team_cursor_;
  // Per find(): collect_fair_share() indexed the candidates already.
  bool fair_share_indexed_ = false;
  std::vector<int32_t> fair_share_touched_;
  std::unordered_map<const std::vector<Slot>*, TeamSlots> team_slots_;
  std::vector<std::vector<int32_t>> live_children_;
  std::vector<bool> pruned_;
  std::vector<double> share_now_;  // by quota node
  // By quota node on the preemptor's path: its share once the preemptor is admitted.
  std::vector<double> share_after_;
  // By quota node, per search: see share_outside().
  std::vector<double> share_outside_;
  // Fair sharing, per find() on the fast path, by cohort quota node: its live
  // children in a max-heap, built on the cohort's first visit; by quota node:
  // its place in its parent's live list; the children chosen in the current round.
  std::vector<std::vector<ChildEntry>> child_heaps_;
  std::vector<uint8_t> heap_built_;
  std::vector<uint32_t> list_position_;
  std::vector<int32_t> target_path_;
  bool share_heaps_ = true;
  int64_t heap_rounds_ = 0;
  std::vector<Slot> empty_group_;
  bool shortcuts_ = true;
  int64_t shortcuts_taken_ = 0;
  int64_t gang_walks_won_ = 0;
  int64_t node_clearing_wins_ = 0;
  std::vector<int8_t> flat_root_;       // by quota node: -1 not known yet, else flat_tree()
  std::vector<int8_t> positive_share_;  // per find(), by team: -1 not known yet
};

}  // namespace allot
