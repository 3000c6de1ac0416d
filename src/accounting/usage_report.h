// The usage report: allocation intervals turned into GPU-, CPU- and
// memory-GiB-hours, own vs borrowed, priced by the rate card, grouped by the
// requested keys over [from, to), with idle capacity separate or shared.
//
// Contract: build_usage_report() is pure and deterministic: the same ledger
// and query always give the same report (rows in key order). Semantics:
// - An interval counts over its overlap with [from, to) minus the
//   missing-data periods (allotd was down: neither usage nor capacity is
//   counted there); an open interval counts up to `to`. Except where the
//   backend's own accounting covers its workload (the adjustments' coverage
//   entries, gpus 0: backend_reconciliation.h): inside a coverage span the
//   interval and the adjustments count through missing data too, since
//   together they are the backend's record; in the rows, and per flavor as
//   allocated_while_missing, apart from the balance.
// - Each piece is priced by the rate card version of its flavor in force at
//   its time; figures keep one entry per version.
// - Idle = capacity x time - allocated, per flavor (per day too when grouped
//   by day) and rate card version, exactly; so per flavor
//   own + borrowed + idle == capacity x time, to the millisecond. Idle may be
//   negative when more was allocated than the recorded capacity.
// - kSeparate: idle is its own line per flavor. kShareEven: each flavor's
//   idle is divided evenly among the teams with a nominal quota in it;
//   kShareNominal: in proportion to their nominal quota, per resource. Idle
//   no team can take (no nominal quota) stays separate. Shared idle needs the
//   rows grouped by team, flavor and/or day only (kInvalidArgument otherwise).
// - visible_teams restricts the rows to those teams' allocations (a
//   team-scoped caller); the separate idle line and the per-flavor balance,
//   which describe the whole cluster, are then left out.
// - Efficiency: the UtilizationIntervals count like allocations (over
//   [from, to) minus the missing-data periods, cut per day when grouped by
//   day), each in the row of its workload's allocation that holds its start
//   (visible as that allocation's team); measured = GPU x time sampled, busy
//   = utilisation x that time. A row without samples has none measured: its
//   utilisation is unknown ("not measured"), never 0. An interval whose
//   workload has no allocation in the ledger is not counted.
// - Adjustments (UsageLedger::adjustments, made from the backend's own
//   accounting) count as own use of their workload, signed, like intervals
//   (missing-data periods excluded but where covered, as above), in the rows
//   and in each flavor's allocated time; so rows and balance both carry the
//   corrected figures.
// - kProject: the governance Contract whose namespaces hold the workload
//   (UsageLedger::projects, the workload's namespace being the part of its
//   name before '/'); "" for work in no contract's namespace. Like user and
//   workload, it cannot take shared idle.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "accounting/backend_reconciliation.h"
#include "accounting/ledger.h"
#include "accounting/rate_card.h"
#include "accounting/resource_time.h"
#include "base/result.h"
#include "model/ids.h"

namespace allot {

enum class GroupKey { kTeam, kUser, kWorkload, kFlavor, kDay, kProject };
enum class IdleMode { kSeparate, kShareEven, kShareNominal };

std::string_view group_key_name(GroupKey key);  // "team", "user", ...
Result<GroupKey> parse_group_key(std::string_view name);
std::string_view idle_mode_name(IdleMode mode);  // "separate", "share-even", ...
Result<IdleMode> parse_idle_mode(std::string_view name);

struct UsageQuery {
  Timestamp from;
  Timestamp to;
  std::vector<GroupKey> by = {GroupKey::kTeam};
  IdleMode idle = IdleMode::kSeparate;
  std::optional<std::set<TeamId>> visible_teams;  // none: every team
};

struct UsageLedger {
  std::vector<AllocationInterval> allocations;
  std::vector<CapacityInterval> capacity;
  std::vector<Period> missing;
  std::vector<NominalQuota> nominal;
  RateCard rates;
  std::map<std::string, std::string> projects;  // namespace -> contract (the project)
  std::vector<UtilizationInterval> utilization;
  // The backend's corrections of the ledger (backend_reconciliation.h).
  std::vector<UsageAdjustment> adjustments;
};

// Resource x time of one rate card version.
struct PricedTime {
  ResourceTime own;
  ResourceTime borrowed;
  ResourceTime idle;  // shared idle (rows), or the idle line itself

  friend bool operator==(const PricedTime&, const PricedTime&) = default;
};

struct Costs {
  double own = 0;
  double borrowed = 0;
  double idle = 0;
  [[nodiscard]] double total() const { return own + borrowed + idle; }
};

// Measured GPU time and its busy part, exact: GPU-milliseconds, and
// GPU-milliseconds x utilisation in ppm.
struct Efficiency {
  WideInt measured_gpu_ms = 0;
  WideInt busy_gpu_ppm_ms = 0;

  [[nodiscard]] bool measured() const { return measured_gpu_ms > 0; }
  [[nodiscard]] double measured_gpu_hours() const;
  [[nodiscard]] double busy_gpu_hours() const;
  // busy / measured, in 0..1. REQUIRES: measured().
  [[nodiscard]] double gpu_utilization() const;
  friend bool operator==(const Efficiency&, const Efficiency&) = default;
};

struct UsageFigures {
  std::map<int64_t, PricedTime> by_version;  // rate card version -> time
  Efficiency efficiency;                     // measured GPU utilisation

  [[nodiscard]] PricedTime sum() const;
  [[nodiscard]] Costs costs(const RateCard& rates) const;
  void add(const UsageFigures& other);
};

struct UsageRow {
  std::vector<std::string> keys;  // one per UsageQuery::by, in its order
  UsageFigures figures;
};

// One flavor's balance: capacity x time == allocated + idle (shared or not).
// The backend's record inside missing-data periods counts in the rows but
// apart from that balance (no capacity is counted there).
struct FlavorBalance {
  std::string flavor;
  ResourceTime capacity;
  ResourceTime allocated;
  ResourceTime allocated_while_missing;
  UsageFigures idle;  // the idle left separate (idle part of each version)
  ResourceTime shared_idle;
};

struct UsageReport {
  UsageQuery query;
  std::vector<UsageRow> rows;               // by keys
  std::vector<FlavorBalance> flavors;       // empty for a team-scoped report
  std::vector<Period> missing;              // clipped to [from, to)
  std::vector<RateCardVersion> rate_cards;  // the versions the figures name
  std::string currency;                     // empty when nothing is priced
  UsageFigures totals;                      // the rows' sum (shared idle included)
  // The backend's adjustments counted (overlapping [from, to), of the
  // visible teams), as stored: where the figures differ from the ledger
  // (coverage entries left out).
  std::vector<UsageAdjustment> adjustments;
};

double cost_of(const ResourceTime& time, const FlavorPrice& price);

Result<UsageReport> build_usage_report(const UsageLedger& ledger, const UsageQuery& query);

}  // namespace allot
