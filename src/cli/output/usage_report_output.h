// UsageReportOutput: `allot report usage` for people (a table) and for
// spreadsheets (CSV), from the answer of GET /api/v1/reports/usage
// (docs/cost.md).
//
// Contract: pure. The table has one line per row (the --by keys, then GPU-,
// own and borrowed GPU-, CPU- and memory-GiB-hours, idle GPU-hours shared to
// the row, cost, own and borrowed cost), hours and costs rounded to two
// decimals, then the totals, the separate idle line of each flavor, the
// missing-data periods, the rate card versions and the content hash. The CSV
// has a header and one line per row, unrounded, then a "total" line; keys
// and currency are quoted when they hold a comma or a quote (RFC 4180).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace allot::cli {

std::string usage_report_table(const nlohmann::json& report);
std::string usage_report_csv(const nlohmann::json& report);
// One CSV field: quoted (quotes doubled) when it holds a comma, a quote or a
// newline (RFC 4180).
std::string csv_field(const std::string& value);

}  // namespace allot::cli
