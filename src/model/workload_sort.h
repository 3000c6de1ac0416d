// WorkloadSort: the orders a workload listing may be asked for (`sort`,
// docs/api.md) and the `continue` token that carries a sort and a position.
//
// Contract: a sort is a key (age, name, namespace, phase, priority, user)
// and a direction ("-" before the key: descending); ties go by uid,
// ascending. A workload's place in an order is its WorkloadSortValue: a
// number (age: the uid; phase: its lifecycle order; priority: its class's
// value) or a text (name, namespace, user), then the uid. The default sort
// (age, ascending: uid order) keeps the plain uid as its token; every other
// sort's token is "<sort>.<number>.<hex of text>.<uid>", URL-safe, and a
// token from another sort is refused. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace allot {

enum class WorkloadSortKey : uint8_t { kAge, kName, kNamespace, kPhase, kPriority, kUser };

struct WorkloadSort {
  WorkloadSortKey key = WorkloadSortKey::kAge;
  bool descending = false;

  [[nodiscard]] bool is_default() const { return key == WorkloadSortKey::kAge && !descending; }
  friend bool operator==(const WorkloadSort&, const WorkloadSort&) = default;
};

// Where a workload stands in a sort, before its uid.
struct WorkloadSortValue {
  int64_t number = 0;
  std::string text;

  friend bool operator==(const WorkloadSortValue&, const WorkloadSortValue&) = default;
};

// A position in a sort: the last workload of the page before.
struct WorkloadCursor {
  WorkloadSortValue value;
  uint64_t uid = 0;
};

// The allowed values, as the 400 lists them.
inline constexpr std::string_view kWorkloadSortValues =
    "age, -age, name, -name, namespace, -namespace, phase, -phase, priority, -priority, user, "
    "-user";

// "age", "-priority", ...; invalid_argument naming `sort` and the allowed
// values otherwise. Empty: the default.
Result<WorkloadSort> parse_workload_sort(std::string_view text);
std::string workload_sort_name(WorkloadSort sort);

std::string encode_workload_cursor(WorkloadSort sort, const WorkloadCursor& cursor);
// invalid_argument naming `continue` when the token is not one of this sort.
Result<WorkloadCursor> decode_workload_cursor(WorkloadSort sort, std::string_view token);

}  // namespace allot
