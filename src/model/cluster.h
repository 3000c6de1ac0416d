// Cluster: a set of nodes behind one execution backend, with its scheduling settings.
#pragma once

#include <string>

#include "base/time.h"
#include "model/object_meta.h"

namespace allot {

enum class BackendKind { kLocal, kSlurm, kKubernetes };

// Whether running work may be moved to other nodes so that a team's work
// within its nominal quota gets room that other work splits (docs/scheduling.md,
// "Consolidation").
enum class ConsolidationPolicy { kNever, kWithinNominal };

struct SchedulingSettings {
  bool fair_sharing = false;              // weighted DRS ordering and preemption
  Duration cycle = Duration::seconds(1);  // period between scheduling cycles
  // Shortest time between two cycles (Slurm's sched_min_interval): a change
  // that comes sooner waits for it, so the exits and submits of that window
  // are planned together. Zero: a cycle at every change. At most `cycle`.
  Duration min_cycle_interval;
  ConsolidationPolicy consolidation = ConsolidationPolicy::kNever;

  friend bool operator==(const SchedulingSettings&, const SchedulingSettings&) = default;
};

// Where a Slurm cluster is (backend: slurm; docs/slurm.md): allot's
// accounts are made in Slurm's accounting for `cluster_name`, its work runs
// in `partition`; `rest_url` is slurmrestd's, when allot should use it
// rather than the commands.
struct SlurmSettings {
  std::string cluster_name;
  std::string partition;
  std::string rest_url;  // empty: the commands (sacctmgr, scontrol, sbatch)

  friend bool operator==(const SlurmSettings&, const SlurmSettings&) = default;
};

struct Cluster {
  ObjectMeta meta;
  BackendKind backend = BackendKind::kLocal;
  std::string region;
  std::string account;
  std::string orchestrator_version;
  std::string max_data_classification;
  SchedulingSettings scheduling;
  SlurmSettings slurm;  // backend kSlurm only

  friend bool operator==(const Cluster&, const Cluster&) = default;
};

}  // namespace allot
