// The SCIM bench (`allot-bench scim`, issue 11's figure): a real allotd,
// started by the bench on a fresh data folder with the SQLite store (each
// SCIM answer means fsynced) and --scim-token-file, provisioned through
// /scim/v2 as Entra ID does it:
// - `users` Users POSTed by `clients` keep-alive clients; rate, p50/p99;
// - `groups` Groups POSTed (without members) the same way;
// - one PATCH that adds `members` of those users to one group in one
//   request (Entra's form: {"op":"Add","path":"members","value":[...]}),
//   timed, then checked by a GET of the group;
// - the membership check Entra sends (`id eq G and members[value eq U]`,
//   excludedAttributes=members) and a page of 100 users from the middle of
//   the list, p50 of 50 each;
// - a restart on the same data: exec to /readyz, the directory reloaded.
//
// Contract: progress goes to `log`; a failure ends the bench early with
// report.error set; allotd is stopped and the data folder removed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace allot::bench {

struct ScimBenchConfig {
  std::string allotd;  // path of the allotd binary
  int32_t users = 10'000;
  int32_t groups = 1'000;
  int32_t members = 5'000;  // added to one group in one PATCH
  int32_t clients = 16;
  int32_t allotd_threads = 64;
};

struct ScimBenchReport {
  ScimBenchConfig config;
  std::string error;
  double users_s = 0;  // wall time of all user POSTs
  double users_per_s = 0;
  double user_p50_ms = 0;
  double user_p99_ms = 0;
  double groups_s = 0;
  double group_p50_ms = 0;
  double group_p99_ms = 0;
  int64_t patch_body_bytes = 0;
  double patch_ms = 0;        // the one membership PATCH
  int64_t members_after = 0;  // counted in the group after it
  double member_check_p50_ms = 0;
  double user_page_p50_ms = 0;
  double restart_ready_s = 0;  // exec to /readyz 200, on the provisioned data
};

ScimBenchReport run_scim_bench(const ScimBenchConfig& config, std::FILE* log);
std::string scim_bench_text(const ScimBenchReport& report);
std::string scim_bench_json(const ScimBenchReport& report);

}  // namespace allot::bench
