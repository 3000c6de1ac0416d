// MeteringState: what allotd keeps in memory of the metering ledger (DESIGN.md
// section 6), and how it is stored as objects.
//
// Contract: value types. The allocation intervals themselves live in the
// store (store.h: allocations) and are read per report; what is kept here is
// small and changes rarely: the rate card versions (one per change of a
// ResourceFlavor's price), the capacity of each flavor over time (one entry
// per change of its nodes), the missing-data periods (allotd was down), the
// last heartbeat stored, and the allocations found open at startup that no
// live workload holds any more; the adjustments reconciliation with the
// backend's accounting made; and each team's GPU quota over time
// (quota_history.h). Stored as objects of the kinds below, whose
// names order them (zero-padded numbers).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accounting/backend_reconciliation.h"
#include "accounting/ledger.h"
#include "accounting/rate_card.h"
#include "base/result.h"
#include "service/control/quota_history.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kRateCardKind = "RateCardVersion";
inline constexpr std::string_view kFlavorCapacityKind = "FlavorCapacity";
inline constexpr std::string_view kMeteringGapKind = "MeteringGap";
inline constexpr std::string_view kMeteringHeartbeatKind = "MeteringHeartbeat";
inline constexpr std::string_view kUsageAdjustmentKind = "UsageAdjustment";

struct MeteringState {
  std::vector<RateCardVersion> rate_cards;  // by version
  std::vector<CapacityInterval> capacity;   // by start; the last of each flavor is open
  std::vector<Period> gaps;                 // missing-data periods, by start
  std::optional<Timestamp> heartbeat;       // the last one stored
  std::vector<AllocationRecord> orphans;    // open at startup, held by no live workload
  // Corrections from the backend's own accounting (backend_reconciliation.h),
  // in the order made; never changed once stored.
  std::vector<UsageAdjustment> adjustments;
  // Each team's GPU quota over time (quota_history.h), by start; the last
  // of each team is open.
  std::vector<TeamQuotaInterval> quotas;
};

bool is_metering_kind(std::string_view kind);

// A stored allocation as the accounting layer's interval.
AllocationInterval allocation_interval_of(AllocationRecord record);

ObjectRecord rate_card_object(const RateCardVersion& version);
ObjectRecord capacity_object(const CapacityInterval& capacity);
ObjectRecord gap_object(const Period& gap);
ObjectRecord heartbeat_object(Timestamp at);
// The `sequence`th adjustment made (0, 1, ...: its place in `adjustments`).
ObjectRecord adjustment_object(const UsageAdjustment& adjustment, int64_t sequence);

// Decodes one stored metering object into `state`; kInvalidArgument naming
// the object when it is malformed. REQUIRES: is_metering_kind(object.kind).
Status load_metering_object(const ObjectRecord& object, MeteringState& state);
// Orders what load_metering_object() gathered and closes each flavor's
// capacity intervals at the start of its next one.
void finish_metering_load(MeteringState& state);

}  // namespace allot
