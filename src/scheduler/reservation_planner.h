// ReservationPlanner: keeps large gangs from starving (DESIGN.md section 3).
//
// When a workload cannot start now (no nodes have room for all its pods, or
// a gang's quota is taken by work that will end), it gets the nodes that can
// hold all its pods earliest (by the running work's declared maxRuntime),
// packing as many of its pods on a node as fit there, so a gang of 16 pods of
// 4 GPUs reserves 8 nodes of 8 GPUs, not 16. From the moment the last of them
// is ready (and not before `not_before`, when its quota will allow it) they
// are its alone; until then only work that ends before that moment may use
// them (backfill). Nodes it already held (`held`) are preferred when the
// times tie, so a reservation keeps its nodes from cycle to cycle.
//
// Contract: plan_gang_reservation() reads the CapacityIndex and changes
// nothing (the caller marks the nodes). `reservable` says which nodes it may
// use (free of reservations, its own, or held for a less important gang).
// Returns nothing when the start cannot be known (not enough reservable nodes
// whose running work declares maxRuntime). `kept`, when given, keeps the
// nodes' steps per shape for the next gangs (reservation_steps.h: the caller
// forgets them when free capacity or the timeline changes); the answer is the
// same with or without it.
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "scheduler/capacity_index.h"
#include "scheduler/plan.h"
#include "scheduler/release_timeline.h"
#include "scheduler/reservation_steps.h"

namespace allot {

struct GangReservationRequest {
  const PendingWorkload* workload = nullptr;
  FlavorIndex flavor;
  Timestamp now;
  Timestamp not_before;             // e.g. when its quota allows it
  std::span<const NodeIndex> held;  // nodes it held in the previous cycle
  std::function<bool(NodeIndex)> reservable;
};

std::optional<Reservation> plan_gang_reservation(const CapacityIndex& capacity,
                                                 const ReleaseTimeline& timeline,
                                                 const GangReservationRequest& request,
                                                 ReservationSteps* kept = nullptr);

// Whether `nodes` hold all the workload's pods at `at` (a held reservation still good).
bool reservation_covers(const CapacityIndex& capacity, const ReleaseTimeline& timeline,
                        const PendingWorkload& workload, std::span<const NodeIndex> nodes,
                        Timestamp at, Timestamp now);

}  // namespace allot
