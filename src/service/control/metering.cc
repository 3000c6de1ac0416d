#include "service/control/metering.h"

#include <algorithm>
#include <map>
#include <utility>

#include "model/node_inventory.h"
#include "service/backend_sync/inventory_nodes.h"
#include "service/control/server_state.h"

namespace allot {
namespace {

const RateCardVersion* latest_rate_card(const MeteringState& state, const std::string& flavor) {
  const RateCardVersion* latest = nullptr;
  for (const RateCardVersion& v : state.rate_cards) {
    if (v.flavor == flavor) latest = &v;
  }
  return latest;
}

const CapacityInterval* current_capacity(const MeteringState& state, const std::string& flavor) {
  const CapacityInterval* current = nullptr;
  for (const CapacityInterval& c : state.capacity) {
    if (c.flavor == flavor) current = &c;
  }
  return current;
}

void close_record(AllocationRecord record, Timestamp now, WriteBatch& batch) {
  record.end_ms = std::max(now.ms(), record.start_ms);
  batch.put_allocations.push_back(std::move(record));
}

}  // namespace

void open_allocation(LiveWorkload& live, const ResourceVector& usage,
                     const ResourceVector& borrowed, Timestamp now, WriteBatch& batch) {
  close_allocation(live, now, batch);  // never two open at once
  AllocationRecord record;
  record.workload_id = live.id();
  record.start_ms = now.ms();
  record.team = live.doc.status.team;
  record.user = live.doc.status.submitted_by;
  record.workload_name = live.key();
  record.flavor = live.doc.status.flavor;
  record.borrowed = borrowed;
  record.own = usage - borrowed;
  batch.put_allocations.push_back(record);
  live.allocation = std::move(record);
}

void close_allocation(LiveWorkload& live, Timestamp now, WriteBatch& batch) {
  if (!live.allocation) return;
  close_record(std::move(*live.allocation), now, batch);
  live.allocation.reset();
}

MeteringChanges metering_changes(const MeteringState& state, const Policy& policy,
                                 const std::vector<Node>& backend_nodes,
                                 const CompiledPolicy* compiled, Timestamp now) {
  MeteringChanges changes;
  changes.quotas = quota_changes(state.quotas, compiled, now);
  int64_t next_version = state.rate_cards.empty() ? 1 : state.rate_cards.back().version + 1;
  for (const ResourceFlavor& flavor : policy.flavors) {
    const RateCardVersion* latest = latest_rate_card(state, flavor.meta.name);
    if (latest != nullptr ? latest->price == flavor.price : flavor.price == FlavorPrice()) continue;
    changes.rate_cards.push_back({next_version++, flavor.meta.name, now, flavor.price});
  }
  std::map<std::string, ResourceVector> capacity;
  for (const ResourceFlavor& flavor : policy.flavors) capacity[flavor.meta.name] = {};
  for (const CapacityInterval& c : state.capacity) capacity.try_emplace(c.flavor);  // removed: 0
  for (const Node& node : policy_nodes(policy, backend_nodes)) {
    capacity[node.flavor] += node.capacity;
  }
  for (const auto& [flavor, total] : capacity) {
    const CapacityInterval* current = current_capacity(state, flavor);
    if (current != nullptr ? current->capacity == total : total.is_zero()) continue;
    changes.capacity.push_back({flavor, total, now, std::nullopt});
  }
  return changes;
}

void put_metering_changes(const MeteringChanges& changes, WriteBatch& batch) {
  for (const RateCardVersion& v : changes.rate_cards)
    batch.put_objects.push_back(rate_card_object(v));
  for (const CapacityInterval& c : changes.capacity)
    batch.put_objects.push_back(capacity_object(c));
  for (const TeamQuotaInterval& q : changes.quotas)
    batch.put_objects.push_back(team_quota_object(q));
}

void apply_metering_changes(MeteringChanges changes, MeteringState& state) {
  for (RateCardVersion& v : changes.rate_cards) state.rate_cards.push_back(std::move(v));
  for (CapacityInterval& c : changes.capacity) {
    for (CapacityInterval& previous : state.capacity) {
      if (previous.flavor == c.flavor && !previous.end) previous.end = c.start;
    }
    state.capacity.push_back(std::move(c));
  }
  apply_quota_changes(std::move(changes.quotas), state.quotas);
}

void attach_open_allocations(std::vector<AllocationRecord> open, ServerState& state) {
  std::optional<Timestamp>& alive = state.metering.heartbeat;
  for (AllocationRecord& record : open) {
    const Timestamp start = Timestamp::from_millis(record.start_ms);
    if (!alive || *alive < start) alive = start;
    LiveWorkload* live = state.workloads.find(record.workload_id);
    if (live != nullptr && holds_quota(live->phase()) && !live->allocation) {
      live->allocation = std::move(record);
    } else {
      state.metering.orphans.push_back(std::move(record));
    }
  }
}

void record_restart(ServerState& state, Timestamp now, WriteBatch& batch) {
  MeteringState& metering = state.metering;
  for (AllocationRecord& orphan : metering.orphans) close_record(std::move(orphan), now, batch);
  metering.orphans.clear();
  const std::optional<Timestamp> alive = metering.heartbeat;
  if (!alive || *alive >= now) return;
  const Period gap{*alive, now};
  batch.put_objects.push_back(gap_object(gap));
  metering.gaps.push_back(gap);
}

void heartbeat_if_due(MeteringState& state, Timestamp now, WriteBatch& batch) {
  if (state.heartbeat && now - *state.heartbeat < kMeteringHeartbeatEvery) return;
  batch.put_objects.push_back(heartbeat_object(now));
  state.heartbeat = now;
}

}  // namespace allot
