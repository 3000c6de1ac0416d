#include "bench/plan_summary.h"

#include "scheduler/explanation_text.h"

namespace allot::bench {
namespace {

class Digest {
 public:
  explicit Digest(uint64_t seed) : hash_(seed) {}
  void add(int64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
      hash_ ^= static_cast<uint64_t>(value >> (byte * 8)) & 0xff;
      hash_ *= 1099511628211ULL;
    }
  }
  void add(const ResourceVector& v) {
    for (Resource r : kAllResources) add(v[r]);
  }
  void add(const std::vector<PodSetAssignment>& sets) {
    add(static_cast<int64_t>(sets.size()));
    for (const PodSetAssignment& set : sets) {
      add(set.count);
      for (const PodPlacement& pod : set.pods) {
        add(pod.node.value());
        add(static_cast<int64_t>(pod.gpu_mask));
      }
    }
  }
  [[nodiscard]] uint64_t value() const { return hash_; }

 private:
  uint64_t hash_;
};

}  // namespace

uint64_t plan_digest(const Plan& plan, uint64_t seed) {
  Digest d(seed);
  for (const Eviction& e : plan.evictions) {
    d.add(static_cast<int64_t>(e.workload.value()));
    d.add(e.node.value());
  }
  for (const Preemption& p : plan.preemptions) {
    d.add(static_cast<int64_t>(p.victim.value()));
    d.add(static_cast<int64_t>(p.beneficiary.value()));
    d.add(static_cast<int64_t>(p.reason));
    d.add(p.grace_period.ms());
  }
  for (const Admission& a : plan.admissions) {
    d.add(static_cast<int64_t>(a.workload.value()));
    d.add(a.flavor.value());
    d.add(a.assignment);
    d.add(a.usage);
    d.add(static_cast<int64_t>(a.borrowing) | (int64_t{a.partial} << 1) |
          (int64_t{a.backfill} << 2));
  }
  for (const Reservation& r : plan.reservations) {
    d.add(static_cast<int64_t>(r.workload.value()));
    d.add(r.flavor.value());
    for (NodeIndex node : r.nodes) d.add(node.value());
    d.add(r.starts_at.ms());
  }
  for (const PendingExplanation& e : plan.explanations) {
    d.add(static_cast<int64_t>(e.workload.value()));
    d.add(static_cast<int64_t>(e.reason));
    d.add(static_cast<int64_t>(e.preemption));
    d.add(e.flavor.valid() ? e.flavor.value() : -1);
    for (int64_t v :
         {int64_t{e.quota_node}, int64_t{e.fr}, e.requested, e.available, e.holder_usage,
          int64_t{e.holder_team}, int64_t{e.queue_position}, e.estimated_start.ms()}) {
      d.add(v);
    }
  }
  return d.value();
}

PlanSummary summarize(const Plan& plan) {
  PlanSummary summary;
  summary.admissions = static_cast<int64_t>(plan.admissions.size());
  summary.preemptions = static_cast<int64_t>(plan.preemptions.size());
  summary.reservations = static_cast<int64_t>(plan.reservations.size());
  for (const PendingExplanation& e : plan.explanations) {
    ++summary.pending_reasons[std::string(pending_reason_name(e.reason))];
    ++summary.preemption_verdicts[std::string(preemption_verdict_name(e.preemption))];
  }
  summary.digest = plan_digest(plan);
  return summary;
}

}  // namespace allot::bench
