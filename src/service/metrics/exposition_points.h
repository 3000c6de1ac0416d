// The samples of a Prometheus text exposition as MetricPoints: how allotd's
// signals read its own /metrics (service/control/signal_monitor.h), so that
// a Signal sees exactly what a Prometheus scraping allotd would.
//
// Contract: pure. Reads the text render_prometheus() writes (comments,
// `name{k="v",...} value` lines, label values escaped \\ \" \n); keeps the
// samples whose name is in `names` (all when `names` is empty); labels come
// out sorted by name. A line it cannot read is skipped.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "accounting/signal_evaluation.h"

namespace allot {

std::vector<MetricPoint> exposition_points(std::string_view text,
                                           const std::set<std::string, std::less<>>& names);

}  // namespace allot
