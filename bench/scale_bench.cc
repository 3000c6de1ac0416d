#include "bench/scale_bench.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "bench/admitted_state.h"
#include "bench/alloc_counter.h"
#include "bench/plan_summary.h"
#include "bench/scale_policy.h"
#include "bench/stopwatch.h"
#include "bench/workload_generator.h"
#include "scheduler/pending_queues.h"
#include "scheduler/scheduler.h"

namespace allot::bench {
namespace {

// Unix time of the bench's "now" (any fixed value keeps runs reproducible).
constexpr Timestamp kNow = Timestamp::from_millis(1'700'000'000'000);
// The pending count of the Slurm figure quoted by the issue.
constexpr int32_t kSlurmPending = 3'000;

// Nearest-rank percentile, p in (0, 100].
double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

double median(const std::vector<double>& values) { return percentile(values, 50); }

struct Passes {
  std::vector<double> wall_ms;
  std::vector<double> cpu_ms;
  Plan first;
  int64_t peak_bytes = 0;  // allocated during the first run, above what was held before
};

// Times `runs` plan() calls over one snapshot. Each plan is destroyed outside
// the timed region.
Passes time_passes(const Scheduler& scheduler, const Snapshot& snapshot, int32_t runs) {
  Passes passes;
  for (int32_t r = 0; r < std::max(1, runs); ++r) {
    const int64_t baseline = allocated_bytes();
    reset_peak();
    const Stopwatch stopwatch;
    Plan plan = scheduler.plan(snapshot);
    const Elapsed elapsed = stopwatch.elapsed();
    passes.wall_ms.push_back(elapsed.wall_ms);
    passes.cpu_ms.push_back(elapsed.cpu_ms);
    if (r == 0) {
      passes.peak_bytes = peak_allocated_bytes() - baseline;
      passes.first = std::move(plan);
    }
  }
  return passes;
}

// Bytes of the pending vector and of the pod sets its workloads own.
int64_t pending_bytes(const std::vector<PendingWorkload>& pending) {
  auto bytes = static_cast<int64_t>(pending.capacity() * sizeof(PendingWorkload));
  for (const PendingWorkload& w : pending) {
    bytes += static_cast<int64_t>(w.pod_sets.capacity() * sizeof(PodSetRequest));
  }
  return bytes;
}

int64_t admitted_gpus(const Plan& plan) {
  int64_t gpus = 0;
  for (const Admission& a : plan.admissions) gpus += a.usage.gpu();
  return gpus;
}

// The measure_* phases stay out of line so that a profile attributes time per phase.

// The fresh state: nothing admitted, everything pending. Returns the first plan.
[[gnu::noinline]] Plan measure_full_pass(const Scheduler& scheduler, const Snapshot& fresh,
                                         ScaleReport& report) {
  Passes passes = time_passes(scheduler, fresh, report.config.phase_full ? report.config.runs : 1);
  report.full_pass_runs_ms = passes.wall_ms;
  report.full_pass_ms = median(passes.wall_ms);
  report.full_pass_cpu_ms = median(passes.cpu_ms);
  report.admissions_first_pass = static_cast<int64_t>(passes.first.admissions.size());
  report.admitted_gpus_first_pass = admitted_gpus(passes.first);
  report.first_pass = summarize(passes.first);
  report.admissions_per_s =
      static_cast<double>(report.admissions_first_pass) / (report.full_pass_ms / 1000.0);
  const auto count = static_cast<double>(std::max<size_t>(1, fresh.pending.size()));
  report.snapshot_bytes_per_pending = static_cast<double>(pending_bytes(fresh.pending)) / count;
  report.plan_peak_bytes_per_pending = static_cast<double>(passes.peak_bytes) / count;
  report.bytes_per_pending = report.snapshot_bytes_per_pending + report.plan_peak_bytes_per_pending;
  return std::move(passes.first);
}

// The full cluster: the first pass's admissions running, the rest pending.
[[gnu::noinline]] void measure_steady_pass(const Scheduler& scheduler, const Snapshot& steady,
                                           ScaleReport& report) {
  const Passes passes = time_passes(scheduler, steady, report.config.runs);
  report.steady_pass_runs_ms = passes.wall_ms;
  report.steady_pass_ms = median(passes.wall_ms);
  report.steady_pass_cpu_ms = median(passes.cpu_ms);
  report.steady_admitted = static_cast<int64_t>(steady.admitted.size());
  report.steady_pending = static_cast<int64_t>(steady.pending.size());
  report.steady_admissions = static_cast<int64_t>(passes.first.admissions.size());
  report.steady_preemptions = static_cast<int64_t>(passes.first.preemptions.size());
  report.steady = summarize(passes.first);
}

// The steady pass from kept team queues and facts: the previous cycle's are
// built untimed; each timed run updates them for the last 1% of pending work
// (touched as if it had just arrived) and plans.
[[gnu::noinline]] void measure_steady_kept_pass(const Scheduler& scheduler, const Snapshot& steady,
                                                ScaleReport& report) {
  const CompiledPolicy& policy = scheduler.policy();
  PendingQueues kept(policy, steady.pending);
  std::vector<WorkloadId> touched;
  for (size_t i = steady.pending.size() - steady.pending.size() / 100; i < steady.pending.size();
       ++i) {
    touched.push_back(steady.pending[i].id);
  }
  std::vector<double> cpu_ms;
  for (int32_t r = 0; r < std::max(1, report.config.runs); ++r) {
    const Stopwatch stopwatch;
    kept.update(policy, steady.pending, touched);
    const Plan plan = scheduler.plan(steady, kept);
    const Elapsed elapsed = stopwatch.elapsed();
    report.steady_kept_pass_runs_ms.push_back(elapsed.wall_ms);
    cpu_ms.push_back(elapsed.cpu_ms);
    if (r == 0) report.steady_kept_pass_identical = plan_digest(plan) == report.steady.digest;
  }
  report.steady_kept_pass_ms = median(report.steady_kept_pass_runs_ms);
  report.steady_kept_pass_cpu_ms = median(cpu_ms);
}

// One urgent gang at a time over the full cluster (`full.pending` is replaced).
[[gnu::noinline]] void measure_preemptions(const Scheduler& scheduler,
                                           const WorkloadGenerator& generator, Snapshot& full,
                                           std::FILE* log, ScaleReport& report) {
  const CompiledPolicy& policy = scheduler.policy();
  std::vector<double> wall_ms;
  std::vector<double> cpu_ms;
  int64_t victims = 0;
  const uint64_t first_id = static_cast<uint64_t>(report.config.pending) + 1;
  for (int32_t run = 0; run < report.config.preemption_runs; ++run) {
    full.pending.assign(1, generator.urgent_gang(run, WorkloadId(first_id + run)));
    const Stopwatch stopwatch;
    const Plan plan = scheduler.plan(full);
    const Elapsed elapsed = stopwatch.elapsed();
    wall_ms.push_back(elapsed.wall_ms);
    cpu_ms.push_back(elapsed.cpu_ms);
    victims += static_cast<int64_t>(plan.preemptions.size());
    report.preemption_digest = plan_digest(plan, report.preemption_digest);
    if (plan.preemptions.empty()) {
      ++report.preemption_runs_without_victims;
      const PendingWorkload& w = full.pending.front();
      std::fprintf(log,
                   "warning: preemption run %d (team %s, flavor %s) preempted nothing "
                   "(%zu admissions)\n",
                   run, policy.team(w.team).name.c_str(),
                   policy.flavor_name(w.pod_sets.front().required_flavor).c_str(),
                   plan.admissions.size());
    }
  }
  report.preemption_runs = report.config.preemption_runs;
  report.preemption_p50_ms = percentile(wall_ms, 50);
  report.preemption_p99_ms = percentile(wall_ms, 99);
  report.preemption_max_ms = *std::max_element(wall_ms.begin(), wall_ms.end());
  report.preemption_p99_cpu_ms = percentile(cpu_ms, 99);
  report.preemption_victims_mean =
      static_cast<double>(victims) / static_cast<double>(wall_ms.size());
}

// kSlurmPending workloads of the same mix on the same (empty) cluster.
[[gnu::noinline]] void measure_slurm_sized_pass(const Scheduler& scheduler,
                                                const WorkloadGenerator& generator,
                                                ScaleReport& report) {
  Snapshot small;
  small.now = kNow;
  small.pending = generator.pending(kSlurmPending, report.config.seed, 1);
  const Passes passes = time_passes(scheduler, small, report.config.runs);
  report.pass_3000_ms = median(passes.wall_ms);
  report.pass_3000_cpu_ms = median(passes.cpu_ms);
}

}  // namespace

ScaleReport run_scale(const ScaleConfig& config, std::FILE* log) {
  ScaleReport report;
  report.config = config;
  const Stopwatch setup;
  const std::shared_ptr<const CompiledPolicy> policy = compile_scale_policy(config);
  const Scheduler scheduler(policy);
  const WorkloadGenerator generator(*policy, config, kNow);
  for (const CompiledNode& node : policy->nodes()) report.total_gpus += node.node.capacity.gpu();
  Snapshot fresh;
  fresh.now = kNow;
  fresh.pending = generator.pending(config.pending, config.seed, 1);
  report.setup_ms = setup.elapsed().wall_ms;
  std::fprintf(log, "setup: %.0f ms; full passes...\n", report.setup_ms);

  const Plan first = measure_full_pass(scheduler, fresh, report);
  std::fprintf(log, "full pass: %.1f ms (cpu %.1f ms), %lld admitted; steady passes...\n",
               report.full_pass_ms, report.full_pass_cpu_ms,
               static_cast<long long>(report.admissions_first_pass));

  AdmittedState state = apply_admissions(fresh.pending, first, kNow);
  fresh = Snapshot();
  Snapshot steady;
  steady.now = kNow;
  steady.admitted = std::move(state.admitted);
  steady.pending = std::move(state.pending);
  if (config.phase_steady) {
    measure_steady_pass(scheduler, steady, report);
    std::fprintf(log, "steady pass: %.1f ms (cpu %.1f ms)\n", report.steady_pass_ms,
                 report.steady_pass_cpu_ms);
    if (std::is_sorted(
            steady.pending.begin(), steady.pending.end(),
            [](const PendingWorkload& a, const PendingWorkload& b) { return a.id < b.id; })) {
      measure_steady_kept_pass(scheduler, steady, report);
      std::fprintf(log, "steady pass, kept queues: %.1f ms (plan %s)\n", report.steady_kept_pass_ms,
                   report.steady_kept_pass_identical ? "identical" : "DIFFERENT");
    }
  }
  if (config.phase_preemption) {
    measure_preemptions(scheduler, generator, steady, log, report);
    std::fprintf(log, "preemption p99: %.2f ms (cpu %.2f ms)\n", report.preemption_p99_ms,
                 report.preemption_p99_cpu_ms);
  }
  if (config.phase_small) measure_slurm_sized_pass(scheduler, generator, report);
  return report;
}

}  // namespace allot::bench
