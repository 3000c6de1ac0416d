#include "service/simulation/arrival_stream.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "service/simulation/endpoint_arrivals.h"

namespace allot {
namespace {

// Upper bound on generated arrivals, so that a typo ("count: 1e9") is an error
// rather than an out-of-memory abort.
constexpr int64_t kMaxGeneratedArrivals = 10'000'000;
// Latest virtual time an arrival may have (about 30 years), far from overflow.
constexpr int64_t kMaxArrivalMillis = int64_t{1} << 40;

std::string generator_prefix(const ScenarioGenerator& generator) {
  if (!generator.name_prefix.empty()) {
    return generator.name_prefix;
  }
  return generator.namespace_name + "-" + generator.spec.priority_class;
}

Status check_arrival(const Arrival& arrival, size_t index) {
  const std::string where = "arrivals[" + std::to_string(index) + "]";
  if (arrival.workload.meta.name.empty()) {
    return invalid_argument("workload without a name", where + ".name");
  }
  if (arrival.at < Timestamp::epoch() || arrival.at.ms() > kMaxArrivalMillis) {
    return invalid_argument(
        "arrival time must lie between 0 and " + Duration::millis(kMaxArrivalMillis).to_string(),
        where + ".at");
  }
  if (arrival.runtime < Duration() || arrival.runtime.ms() > kMaxArrivalMillis) {
    return invalid_argument(
        "runtime must lie between 0 and " + Duration::millis(kMaxArrivalMillis).to_string(),
        where + ".runtime");
  }
  return {};
}

}  // namespace

Result<ArrivalStream> ArrivalStream::create(std::vector<Arrival> arrivals) {
  std::set<std::pair<std::string, std::string>> names;
  for (size_t i = 0; i < arrivals.size(); ++i) {
    ALLOT_RETURN_IF_ERROR(check_arrival(arrivals[i], i));
    const ObjectMeta& meta = arrivals[i].workload.meta;
    if (!names.emplace(meta.namespace_name, meta.name).second) {
      return invalid_argument(
          "duplicate workload name '" + meta.namespace_name + "/" + meta.name + "'",
          "Workload/" + meta.namespace_name + "/" + meta.name);
    }
  }
  std::stable_sort(arrivals.begin(), arrivals.end(),
                   [](const Arrival& a, const Arrival& b) { return a.at < b.at; });
  return ArrivalStream(std::move(arrivals));
}

Result<ArrivalStream> ArrivalStream::from_scenario(const Scenario& scenario) {
  int64_t total = static_cast<int64_t>(scenario.workloads.size());
  for (size_t g = 0; g < scenario.generators.size(); ++g) {
    const ScenarioGenerator& generator = scenario.generators[g];
    const std::string where =
        "Scenario/" + scenario.meta.name + ".spec.generators[" + std::to_string(g) + "]";
    if (generator.count < 0 || generator.count > kMaxGeneratedArrivals - total) {
      return invalid_argument("generator count must be between 0 and " +
                                  std::to_string(kMaxGeneratedArrivals) + " in all",
                              where + ".count");
    }
    total += generator.count;
    if (generator.count > 0 &&
        (generator.every.ms() < 0 || generator.start.ms() < 0 ||
         generator.every.ms() > (kMaxArrivalMillis - generator.start.ms()) / generator.count)) {
      return invalid_argument("generator arrivals must lie between 0 and " +
                                  Duration::millis(kMaxArrivalMillis).to_string(),
                              where + ".every");
    }
  }
  std::vector<Arrival> arrivals;
  arrivals.reserve(static_cast<size_t>(total));
  for (const ScenarioArrival& explicit_arrival : scenario.workloads) {
    Arrival arrival(Timestamp::epoch() + explicit_arrival.at, explicit_arrival.runtime,
                    explicit_arrival.workload);
    arrival.idle_after = explicit_arrival.idle_after;
    arrival.resume_after = explicit_arrival.resume_after;
    arrivals.push_back(std::move(arrival));
  }
  int64_t longest = 0;
  for (const ScenarioGenerator& generator : scenario.generators) {
    longest = std::max(longest, generator.count);
  }
  // Round by round, so that ties between generators interleave fairly.
  for (int64_t i = 0; i < longest; ++i) {
    for (const ScenarioGenerator& generator : scenario.generators) {
      if (i >= generator.count) {
        continue;
      }
      Arrival arrival;
      arrival.at = Timestamp::epoch() + generator.start + generator.every * i;
      arrival.runtime = generator.runtime;
      arrival.workload.meta.name = generator_prefix(generator) + "-" + std::to_string(i);
      arrival.workload.meta.namespace_name = generator.namespace_name;
      arrival.workload.spec = generator.spec;
      arrivals.push_back(std::move(arrival));
    }
  }
  ALLOT_ASSIGN_OR_RETURN(arrivals, expand_endpoints(std::move(arrivals), scenario.scale_events));
  return create(std::move(arrivals));
}

}  // namespace allot
