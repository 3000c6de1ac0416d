// The connections bench (`allot-bench connections`): what idle and slow
// clients cost everyone else (issue 10, item 11). A real allotd, started by
// the bench on a fresh data folder, holds `idle` connections that never send
// a byte and `slow` connections that send one header byte every
// `slow_interval_ms` and never finish it (slowloris; one the server closes
// is opened again, as an attacker would). Meanwhile `probes` GET /healthz,
// each on a new connection, one after another, are timed from connect to the
// answer's last byte; one without an answer within `probe_timeout_ms` is a
// timeout.
//
// Contract: progress goes to `log`; a failure ends the bench early with
// report.error set; allotd is stopped and its data folder removed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace allot::bench {

struct ConnectionsConfig {
  std::string allotd;  // path of the allotd binary
  int32_t idle = 10'000;
  int32_t slow = 100;
  int32_t probes = 1'000;
  int32_t probe_gap_ms = 10;
  int32_t probe_timeout_ms = 5'000;
  int32_t slow_interval_ms = 1'000;
  int32_t allotd_threads = 64;  // allotd --threads
};

struct ConnectionsReport {
  ConnectionsConfig config;
  std::string error;
  int32_t idle_open = 0;      // idle connections made
  int32_t idle_alive = 0;     // of them, still open after the probes
  int64_t slow_reopened = 0;  // slow connections the server closed (and the bench reopened)
  int64_t probes_ok = 0;
  int64_t probe_errors = 0;  // closed or refused without an answer
  int64_t probe_timeouts = 0;
  double probe_p50_ms = 0;
  double probe_p99_ms = 0;
  double probe_max_ms = 0;
};

ConnectionsReport run_connections(const ConnectionsConfig& config, std::FILE* log);
std::string connections_report_text(const ConnectionsReport& report);
std::string connections_report_json(const ConnectionsReport& report);

}  // namespace allot::bench
