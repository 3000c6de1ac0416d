// The `spec` of a Budget manifest (issue 14, item 3; model/budget.h):
//
//   kind: Budget
//   metadata: {name: research-monthly}
//   spec: {team: research, period: monthly | weekly | {from: T, to: T},
//          amount: 5000, currency: EUR, thresholds: [0.5, 0.8, 1.0],
//          action: alert | stopAdmission}
//
// Contract: decode_budget() returns the model value or a Status located at
// the offending field (document, field path and position in the text):
// amount > 0; currency required; thresholds in (0, 1], ascending; from
// before to (RFC 3339). Stateless.
#pragma once

#include "api/manifest_fields.h"
#include "base/result.h"
#include "model/budget.h"

namespace allot {

Result<Budget> decode_budget(ObjectMeta meta, const Field& spec);

}  // namespace allot
