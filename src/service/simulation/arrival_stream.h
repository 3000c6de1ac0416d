// ArrivalStream: the workloads a simulation submits, in the order they arrive.
//
// Contract: a sorted, validated sequence of {at, runtime, Workload}. Arrivals
// are ordered by time; ties keep the order they were given in (a scenario's
// explicit workloads first, then each generator's in turn, round by round),
// so WorkloadIds assigned by position are deterministic. Workload names are
// unique per namespace. The source may be a Scenario (from_scenario) or
// anything else that yields arrivals, such as a replayed trace (create).
// Immutable value; thread-compatible.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/scenario.h"
#include "model/workload.h"

namespace allot {

struct Arrival {
  Arrival() = default;
  Arrival(Timestamp at_time, Duration work, Workload submitted)
      : at(at_time), runtime(work), workload(std::move(submitted)) {}

  Timestamp at;      // virtual time of submission (0 = start of the simulation)
  Duration runtime;  // work it needs once running
  Workload workload;
  std::optional<Duration> idle_after;    // a Space: active this long per run (scenario.h)
  std::optional<Duration> resume_after;  // a Space: resumed this long after a suspension
  // An InferenceEndpoint's replica (endpoint_arrivals.h): its index, and when
  // it stops being wanted (stopped, or taken out of its queue, for good).
  int32_t replica = -1;
  std::optional<Timestamp> withdraw_at;

  friend bool operator==(const Arrival&, const Arrival&) = default;
};

class ArrivalStream {
 public:
  ArrivalStream() = default;

  // Sorts `arrivals` by time (stable) and checks them: names present and
  // unique per namespace, times and runtimes not negative.
  static Result<ArrivalStream> create(std::vector<Arrival> arrivals);
  // Expands the scenario's explicit workloads and generators into arrivals,
  // and each InferenceEndpoint into its replicas' (endpoint_arrivals.h).
  static Result<ArrivalStream> from_scenario(const Scenario& scenario);

  [[nodiscard]] const std::vector<Arrival>& arrivals() const { return arrivals_; }
  [[nodiscard]] size_t size() const { return arrivals_.size(); }
  [[nodiscard]] bool empty() const { return arrivals_.empty(); }

 private:
  explicit ArrivalStream(std::vector<Arrival> arrivals) : arrivals_(std::move(arrivals)) {}

  std::vector<Arrival> arrivals_;
};

}  // namespace allot
