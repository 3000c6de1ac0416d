// HTML report of a trace replay (`allot simulate --trace ... --report FILE`):
// one self-contained page comparing the policies of a study, for every point
// of its sweep (--load-factor, --capacity-factor).
//
// Contract: pure formatting, no I/O. The page (lang="en", a viewport for
// phones) holds a heading with the jobs read, then one <section
// data-load="X" data-capacity="Y"> per sweep point, in sweep order, each with:
// - the summary table: the rows of the text output's policy table, one
//   column per policy;
// - the per-team table: one row per team and policy with the text output's
//   per-team figures (jobs, mean queueing delay, guarantee compliance, own
//   and borrowed GPU-hours, cost when priced);
// - the queueing tail: a complementary CDF (share of jobs that waited at
//   least x; x seconds on a log axis, delays under 1 s drawn at 1 s; y on a
//   log axis down to one job), one line per policy;
// - per team with jobs, a chart of GPUs used over time (days since the first
//   arrival), one line per policy and a dashed line at the team's nominal.
// Numbers carry thousands separators ("41,868.3"); a figure that does not
// exist is "-". Every figure cell names what it shows (data-policy,
// data-figure: the key of the JSON output, and data-team in the per-team
// table) so that a reader can check it against `-o json`. Tables scroll
// sideways inside their own region on a narrow screen.
//
// Charts: each is a <div data-chart="K"> (its title until drawn); the page
// ends with the charts' specs as <script type="application/json"
// id="report-charts">{"charts": [...]}</script> (no "<" inside: escaped) and
// the report's script (report_assets.h: the dashboard's chart module,
// web/src/charts/line_chart.jsx, inlined), which draws charts[K] into div K:
// policies whose lines coincide are one line with both names; legends wrap,
// never clip. Lines have at most 500 points, numbers 6 significant digits.
// The style sheet is inline too, and a Content-Security-Policy meta allows
// only these two (by SHA-256) and fetches nothing. Built without the web
// (ALLOT_WEB_UI=OFF), the page says so and has no script, style or chart.
#pragma once

#include <string>

#include "service/study/study_sweep.h"

namespace allot::cli {

std::string trace_report_html(const StudySweep& sweep);

}  // namespace allot::cli
