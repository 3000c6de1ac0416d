// Cluster: a set of nodes behind one execution backend, with its scheduling settings.
#pragma once

#include <string>

#include "base/time.h"
#include "model/object_meta.h"

namespace allot {

enum class BackendKind { kLocal, kSlurm, kKubernetes };

struct SchedulingSettings {
  bool fair_sharing = false;              // weighted DRS ordering and preemption
  Duration cycle = Duration::seconds(1);  // period between scheduling cycles

  friend bool operator==(const SchedulingSettings&, const SchedulingSettings&) = default;
};

struct Cluster {
  ObjectMeta meta;
  BackendKind backend = BackendKind::kLocal;
  std::string region;
  std::string account;
  std::string orchestrator_version;
  std::string max_data_classification;
  SchedulingSettings scheduling;

  friend bool operator==(const Cluster&, const Cluster&) = default;
};

}  // namespace allot
