// The Prometheus text exposition format (version 0.0.4) of a metrics
// snapshot: what GET /metrics answers (docs/metrics.md lists each family).
//
// Contract: pure; the same snapshot always gives the same text. Every family
// has its HELP and TYPE lines, once, before its samples; names start with
// `allot_`, counters end in `_total`, amounts are in base units (GPUs, CPU
// cores, bytes, seconds); label values are escaped (\\, \", \n). Families of
// `snapshot.cluster` are left out when it is unset (a team-scoped caller).
// borrowed and lent series are written only where nonzero (most teams
// borrow nothing: this keeps a 1,000-team scrape small).
#pragma once

#include <string>
#include <string_view>

#include "service/metrics/metrics_snapshot.h"

namespace allot {

// The Content-Type of the text format.
inline constexpr std::string_view kPrometheusContentType =
    "text/plain; version=0.0.4; charset=utf-8";

std::string render_prometheus(const MetricsSnapshot& snapshot);

}  // namespace allot
