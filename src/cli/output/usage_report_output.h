// UsageReportOutput: `allot report usage` for people (a table) and for
// spreadsheets (CSV), from the answer of GET /api/v1/reports/usage
// (docs/cost.md).
//
// Contract: pure. The table has one line per row (the --by keys, then GPU-,
// own and borrowed GPU-, CPU- and memory-GiB-hours, idle GPU-hours shared to
// the row, cost, own and borrowed cost), hours and costs rounded to two
// decimals, then the totals, the separate idle line of each flavor, the
// missing-data periods, the rate card versions and the content hash. The CSV
// is api/usage_report_csv.h's (usage_report_csv(), csv_field()).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "api/usage_report_csv.h"

namespace allot::cli {

std::string usage_report_table(const nlohmann::json& report);

}  // namespace allot::cli
