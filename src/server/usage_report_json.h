// The JSON of a usage report (docs/cost.md): GET /api/v1/reports/usage.
//
// Contract: pure. Hours are unrounded; every cost is the sum over the rate
// card versions its figures name. The content hash is the SHA-256 of the
// document as encoded without its "contentHash" field (compact, keys in
// order), so that the same ledger and query always hash alike.
#pragma once

#include <nlohmann/json.hpp>

#include "accounting/usage_report.h"

namespace allot::server {

nlohmann::json usage_report_json(const UsageReport& report, const RateCard& rates);

}  // namespace allot::server
