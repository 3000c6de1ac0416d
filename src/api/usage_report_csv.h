// The CSV of a usage report (docs/cost.md): `allot report usage -o csv` and
// the evidence export's usage.csv (evidence_report.h), from the JSON of
// GET /api/v1/reports/usage.
//
// Contract: pure. A header (the report's `by` keys, then kUsageFigures,
// currency, measuredGpuHours, gpuUtilization) and one line per row,
// unrounded (number_text.h), then a "total" line; keys and currency are
// quoted when they hold a comma, a quote or a newline (RFC 4180). Missing
// figures are 0.
#pragma once

#include <array>
#include <string>

#include <nlohmann/json.hpp>

namespace allot {

// The figures of a usage report's row, in column order (this CSV's and the
// table of `allot report usage`).
inline constexpr std::array<const char*, 9> kUsageFigures = {
    "gpuHours",     "ownGpuHours", "borrowedGpuHours", "cpuHours",    "memoryGiBHours",
    "idleGpuHours", "cost",        "ownCost",          "borrowedCost"};

std::string usage_report_csv(const nlohmann::json& report);

// One CSV field: quoted (quotes doubled) when it holds a comma, a quote or a
// newline (RFC 4180).
std::string csv_field(const std::string& value);

}  // namespace allot
