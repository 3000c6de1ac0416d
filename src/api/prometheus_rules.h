// Signals as Prometheus alerting rules (issue 14, item 5): what `allot export
// prometheus-rules` writes, for sites that run Prometheus and Alertmanager
// over allotd's /metrics (docs/metrics.md, Signals).
//
// Contract: pure. One rule group `allot-signals`; one rule per Signal, in
// the order given: alert = the Signal's name, expr = its expression
// unchanged (the subset is PromQL), for = its `for` (omitted when 0),
// labels {owner, signal, source: allot}, annotations {summary: the
// response's text, runbook_url when set}. `promtool check rules` accepts the
// text (a ctest runs it).
#pragma once

#include <string>
#include <vector>

#include "model/signal.h"

namespace allot {

std::string render_prometheus_rules(const std::vector<Signal>& signals);

// A Duration as Prometheus writes one: "300s", "1500ms", "0s".
std::string prometheus_duration(Duration duration);

}  // namespace allot
