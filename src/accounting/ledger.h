// The metering ledger's records: what was allocated to whom, when, and what
// the cluster could have given.
//
// Contract: plain value types. An AllocationInterval is one workload's
// allocation in one flavor, split as the scheduler decided at admission into
// the part within the team's own nominal quota and the part it borrowed from
// its cohort; it is open (no `end`) while the workload holds it. A
// CapacityInterval is what one flavor's healthy nodes offered over a span. A
// Period is a half-open span [from, to), used for the missing-data periods
// (allotd was down: nothing is known, nothing is counted). A
// UtilizationInterval is one GPU's measured mean utilisation over a span
// while a workload held it (the efficiency beside the cost).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "model/ids.h"

namespace allot {

struct Period {
  Timestamp from;
  Timestamp to;

  friend bool operator==(const Period&, const Period&) = default;
};

struct AllocationInterval {
  WorkloadId workload;
  std::string workload_name;  // "namespace/name", as reports show it
  TeamId team;
  std::string user;  // who submitted it
  std::string flavor;
  ResourceVector own;       // within the team's nominal quota
  ResourceVector borrowed;  // lent by the cohort
  Timestamp start;
  std::optional<Timestamp> end;  // none while open

  friend bool operator==(const AllocationInterval&, const AllocationInterval&) = default;
};

struct CapacityInterval {
  std::string flavor;
  ResourceVector capacity;
  Timestamp start;
  std::optional<Timestamp> end;  // none while current

  friend bool operator==(const CapacityInterval&, const CapacityInterval&) = default;
};

struct UtilizationInterval {
  WorkloadId workload;
  std::string gpu;  // "node/index"
  Timestamp start;
  Timestamp end;
  int64_t utilization_ppm = 0;  // 0..1,000,000

  friend bool operator==(const UtilizationInterval&, const UtilizationInterval&) = default;
};

// A team's nominal quota in one flavor: the weight of share-nominal idle.
struct NominalQuota {
  TeamId team;
  std::string flavor;
  ResourceVector nominal;

  friend bool operator==(const NominalQuota&, const NominalQuota&) = default;
};

// Removes `holes` from [from, to): the spans left, in time order, none empty.
std::vector<Period> subtract_periods(Period whole, std::vector<Period> holes);

}  // namespace allot
