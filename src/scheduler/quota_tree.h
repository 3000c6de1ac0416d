// QuotaTree: Kueue's lending and borrowing arithmetic over the cohort tree,
// per flavor-resource ("fr"), with incremental usage (DESIGN.md section 3).
//
//   guard(n) = max(0, S(n) - L(n)) when L is set, else 0
//   S(n)     = N(n) + sum over children c of (S(c) - guard(c))
//   U(team)  = requests of its admitted workloads
//   U(coh)   = sum over children c of max(0, U(c) - guard(c))
//   avail(root) = S(root) - U(root)
//   avail(n)    = max(0, guard(n) - U(n)) + min(avail(parent), cap(n)),
//   cap(n)      = (S(n) - guard(n)) - max(0, U(n) - guard(n)) + B(n)  (unlimited if B unset)
//
// Contract: a value type. Copies share the limits (subtree quota and guard,
// fixed by the policy) and copy the usage; flavor_slice() copies only one
// flavor's usage and keeps no cache, for the many copies that reservations
// take. Ungoverned flavor-resources (declared by no quota) always fit. Not
// thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/quantity.h"
#include "scheduler/compiled_policy.h"

namespace allot {

// The first limit that stops a request, for explanations.
struct QuotaShortfall {
  int32_t fr = -1;
  int32_t binding_node = -1;  // the team or cohort whose limit binds
  int64_t requested = 0;
  int64_t available = 0;
};

class QuotaTree {
 public:
  explicit QuotaTree(const CompiledPolicy& policy);

  // A copy that holds only `flavor`'s usage, of its resources up to the last
  // governed one (a reserved gang keeps one such copy: ungoverned usage is
  // always 0), and no availability cache (every answer is computed afresh).
  // REQUIRES: only `flavor` is asked about or changed on the copy.
  [[nodiscard]] QuotaTree flavor_slice(FlavorIndex flavor) const;

  // Adds (or, with a negative amount, removes) a team's usage in a flavor.
  void add_usage(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount);
  void remove_usage(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount);

  // What `team` may still use of fr now.
  [[nodiscard]] int64_t available(int32_t quota_node, int32_t fr) const;
  // True when `request` fits the team's availability for every governed resource.
  [[nodiscard]] bool fits(TeamIndex team, FlavorIndex flavor, const ResourceVector& request) const;
  // The first resource that does not fit, or fr == -1 when it fits.
  [[nodiscard]] QuotaShortfall shortfall(TeamIndex team, FlavorIndex flavor,
                                         const ResourceVector& request) const;
  // True when usage + request exceeds the team's nominal for some governed resource.
  [[nodiscard]] bool would_borrow(TeamIndex team, FlavorIndex flavor,
                                  const ResourceVector& request) const;
  // The part of `request` that would lie above the team's nominal quota, per
  // governed resource (0 for ungoverned ones): what it borrows.
  [[nodiscard]] ResourceVector borrowed_part(TeamIndex team, FlavorIndex flavor,
                                             const ResourceVector& request) const;
  // True when the team uses more than its nominal of some governed resource of the flavor.
  [[nodiscard]] bool borrowing(TeamIndex team, FlavorIndex flavor) const;

  // The flavor-resources of which `quota_node` uses more than its subtree
  // quota, bit fr set for fr: what above_quota() (cohort_reclaim.h) asks, for
  // every fr at once, cached per node like available() (a victim search judges
  // the same few hundred teams again and again at one usage).
  // REQUIRES: over_quota_kept().
  [[nodiscard]] uint64_t over_quota(int32_t quota_node) const;
  // False in a flavor slice, and for a policy of more than 64 flavor-resources.
  [[nodiscard]] bool over_quota_kept() const { return !over_quota_cache_.empty(); }

  // A stamp of the usage now. back_to(mark) once every change made since
  // has been undone (each remove_usage() by the add_usage() of the same
  // amount, or the reverse: the usage is then exactly what it was) makes the
  // availability cached before the changes hold again, instead of computing
  // it afresh (a victim search takes and puts back work by the thousand).
  [[nodiscard]] uint64_t usage_mark() const { return epoch_; }
  // REQUIRES: the usage equals what it was when usage_mark() gave `mark`.
  void back_to(uint64_t mark) { epoch_ = mark; }

  // (0 for a flavor-resource a flavor slice does not keep: no quota governs
  // it, so its usage is never changed.)
  [[nodiscard]] int64_t usage(int32_t quota_node, int32_t fr) const {
    return fr - fr_base_ < usage_stride_ ? usage_[usage_slot(quota_node, fr)] : 0;
  }
  [[nodiscard]] int64_t subtree_quota(int32_t quota_node, int32_t fr) const {
    return subtree_[limit_slot(quota_node, fr)];
  }
  [[nodiscard]] int64_t guard(int32_t quota_node, int32_t fr) const {
    return guard_[limit_slot(quota_node, fr)];
  }
  [[nodiscard]] int64_t nominal(int32_t quota_node, int32_t fr) const {
    return policy_->limits(quota_node, fr).nominal;
  }
  [[nodiscard]] const CompiledPolicy& policy() const { return *policy_; }
  // How many usage values the tree keeps (for tests: a flavor slice's size).
  [[nodiscard]] size_t usage_values() const { return usage_.size(); }

 private:
  struct Uninitialized {};
  // Shares `from`'s policy and limits; no usage, no cache.
  QuotaTree(const QuotaTree& from, Uninitialized)
      : policy_(from.policy_),
        fr_count_(from.fr_count_),
        usage_stride_(from.usage_stride_),
        limits_(from.limits_),
        subtree_(from.subtree_),
        guard_(from.guard_) {}

  // What the policy fixes: shared by all copies.
  struct Limits {
    std::vector<int64_t> subtree;
    std::vector<int64_t> guard;
  };
  [[nodiscard]] size_t limit_slot(int32_t node, int32_t fr) const {
    return static_cast<size_t>(node) * fr_count_ + fr;
  }
  // A flavor slice keeps usage_ only for fr in [fr_base_, fr_base_ + usage_stride_):
  // the flavor's resources up to its last governed one.
  [[nodiscard]] size_t usage_slot(int32_t node, int32_t fr) const {
    return static_cast<size_t>(node) * usage_stride_ + (fr - fr_base_);
  }
  void change_usage(int32_t quota_node, int32_t fr, int64_t delta);
  [[nodiscard]] int64_t cap(int32_t quota_node, int32_t fr) const;

  [[nodiscard]] int64_t compute_available(int32_t quota_node, int32_t fr) const;

  const CompiledPolicy* policy_;
  int32_t fr_count_;
  int32_t fr_base_ = 0;
  int32_t usage_stride_;
  std::shared_ptr<const Limits> limits_;
  // Into *limits_, which every copy keeps alive and nobody changes.
  const int64_t* subtree_ = nullptr;
  const int64_t* guard_ = nullptr;
  std::vector<int64_t> usage_;
  // available() is asked far more often than usage changes: its results are
  // cached until the next change of usage (any change takes a new epoch,
  // never one used before, even after back_to()). Empty in a flavor slice
  // (no cache).
  uint64_t epoch_ = 1;
  uint64_t last_epoch_ = 1;  // the last epoch taken
  mutable std::vector<int64_t> available_cache_;
  mutable std::vector<uint64_t> available_epoch_;
  // By quota node: over_quota() and the epoch it was computed at (0: never).
  struct OverQuota {
    uint64_t epoch = 0;
    uint64_t frs = 0;
  };
  mutable std::vector<OverQuota> over_quota_cache_;
};

}  // namespace allot
