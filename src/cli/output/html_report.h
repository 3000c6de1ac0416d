// HTML report of a trace replay (`allot simulate --trace ... --report FILE`):
// one self-contained page comparing the policies of a PolicyComparison.
//
// Contract: pure formatting, no I/O. The page holds, in order: a summary
// table (one column per policy); a queueing-delay CDF (x: seconds on a log
// axis, delays under 1 s drawn at 1 s; y: fraction of admitted jobs; one line
// per policy); then per team one chart of GPUs used over time (days since the
// first arrival), one line per policy and a dashed line at the team's
// nominal. Every chart is an inline <svg> (svg_chart.h); no scripts, styles
// or images are fetched. Lines have at most 500 points.
#pragma once

#include <string>

#include "service/study/policy_comparison.h"

namespace allot::cli {

std::string trace_report_html(const PolicyComparison& comparison);

}  // namespace allot::cli
