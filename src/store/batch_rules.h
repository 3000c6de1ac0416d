// Rules that every Store checks on a WriteBatch, and the errors it gives, so
// that MemoryStore and SqliteStore answer alike (the contract is in store.h).
//
// Stateless functions; thread-safe.
#pragma once

#include <cstdint>
#include <limits>

#include "base/status.h"
#include "store/store.h"

namespace allot {

// SQLite keeps integers signed: larger ids would not sort or compare as numbers.
constexpr uint64_t kMaxWorkloadId = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());

// Checks what can be checked without the stored state: every put workload id
// (of a workload or an allocation) is in 1..kMaxWorkloadId (so neither
// WorkloadId(0) nor WorkloadId::invalid()); an allocation ends no earlier than
// it starts and holds no negative amount; every audit outbox sequence (of an
// append, or the ranged delete's bound when not 0) is in 1..kMaxWorkloadId.
// kInvalidArgument otherwise.
Status validate_batch(const WriteBatch& batch);

// True when the allocation overlaps [from_ms, to_ms) (Store::allocations).
bool overlaps(const AllocationRecord& allocation, int64_t from_ms, int64_t to_ms);

// The kAlreadyExists error of a put whose (namespace, name) belongs to another id.
Status workload_name_taken(const WorkloadRecord& workload);

}  // namespace allot
