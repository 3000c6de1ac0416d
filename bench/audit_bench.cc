// allot-audit-bench [RECORDS] [FOLDER]: the audit log at issue 15's scale.
// Writes RECORDS (default 1,000,000) request-like records through the
// AuditLog writer (appends, a signed checkpoint every 1,000, rotation at
// 64 MiB), then times `allot audit verify`'s check of them
// (verify_audit_log: every hash of the chain and every checkpoint's
// signature). Goal (issue 15): verify of 1,000,000 records <= 5 s. Then
// times the evidence export's read of a period (read_audit_range(): only
// the files whose first and last records meet it): the newest 10,000
// records' period, and the whole log's, with the files each read.
// FOLDER (default: a fresh one under /tmp) is removed at the end.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "base/clock.h"
#include "base/logger.h"
#include "service/audit/audit_log.h"
#include "service/audit/audit_range.h"
#include "service/audit/audit_reading.h"

namespace {

// The time request_event(i) is stamped with.
allot::Timestamp bench_record_time(uint64_t i) {
  return allot::Timestamp::from_millis(1'764'754'505'000 + static_cast<int64_t>(i));
}

allot::governance::AuditEvent request_event(uint64_t i) {
  allot::governance::AuditEvent event;
  event.verb = i % 3 == 0 ? "cancel" : "create";
  event.username = "user" + std::to_string(i % 500);
  event.groups = {"team-" + std::to_string(i % 50)};
  event.source_ips = {"10.0.0." + std::to_string(i % 250)};
  const std::string ns = "team-" + std::to_string(i % 50);
  const std::string name = "job-" + std::to_string(i);
  event.request_uri = "/api/v1/namespaces/" + ns + "/workloads";
  event.object_ref = allot::governance::AuditObjectRef{"workloads", ns, name, "", "allot.dev"};
  event.response_code = 201;
  event.decision = "allow";
  event.reason = "User \"" + event.username + "\" may create workloads in namespace \"" + ns +
                 "\": RoleBinding \"" + ns + "/members\" grants ClusterRole \"team-member\"";
  event.request_received = bench_record_time(i);
  event.stage_time = event.request_received;
  return event;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct RangeTiming {
  allot::audit::AuditRangeRead read;
  double seconds = 0;
};

// read_audit_range() of records [first, last] (their stage times).
RangeTiming time_range(const std::string& dir, uint64_t first, uint64_t last) {
  const auto start = std::chrono::steady_clock::now();
  const auto read = allot::audit::read_audit_range(
      dir, bench_record_time(first), bench_record_time(last + 1), [](nlohmann::json) {});
  return {read.ok() ? *read : allot::audit::AuditRangeRead{}, seconds_since(start)};
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t records = argc > 1 ? std::stoull(argv[1]) : 1'000'000;
  const std::string root =
      argc > 2 ? std::string(argv[2]) : "/tmp/allot-audit-bench-" + std::to_string(::getpid());
  std::filesystem::remove_all(root);
  allot::audit::AuditLogOptions options;
  options.dir = root + "/audit";
  options.checkpoint_dir = root + "/audit-checkpoints";
  allot::SystemClock clock;
  allot::NullLogger logger;
  const allot::identity::SigningKey key = allot::identity::generate_signing_key();
  auto log = allot::audit::AuditLog::open(options, key, clock, logger);
  if (!log.ok()) {
    std::fprintf(stderr, "cannot open the audit log: %s\n", log.status().message().c_str());
    return 1;
  }
  const auto write_start = std::chrono::steady_clock::now();
  for (uint64_t i = 1; i <= records; ++i) {
    const allot::Status status = (*log)->record_async(request_event(i));
    if (status.ok() && i % 1000 == 0) (void)(*log)->checkpoint_if_due(true);
    if (!status.ok()) {
      std::fprintf(stderr, "record %llu: %s\n", static_cast<unsigned long long>(i),
                   status.message().c_str());
      return 1;
    }
  }
  (void)(*log)->close();
  const double write_s = seconds_since(write_start);
  uint64_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(options.dir)) {
    bytes += entry.file_size();
  }
  const auto verify_start = std::chrono::steady_clock::now();
  const auto report =
      allot::audit::verify_audit_log(options.dir, options.checkpoint_dir, key.public_key);
  const double verify_s = seconds_since(verify_start);
  const uint64_t newest = records > 10'000 ? records - 9'999 : 1;
  const RangeTiming recent = time_range(options.dir, newest, records);
  const RangeTiming whole = time_range(options.dir, 1, records);
  std::filesystem::remove_all(root);
  if (!report.ok()) {
    std::fprintf(stderr, "verify failed: %s\n", report.status().message().c_str());
    return 1;
  }
  std::printf(
      "{\"records\": %llu, \"bytes\": %llu, \"write_s\": %.3f, \"verify_s\": %.3f, "
      "\"verified\": %s, \"checkpoints\": %llu, \"uncovered_tail\": %llu, \"goal_verify_s\": 5, "
      "\"range_newest_records\": %zu, \"range_newest_files_read\": %zu, \"files\": %zu, "
      "\"range_newest_s\": %.3f, \"range_whole_records\": %zu, \"range_whole_files_read\": %zu, "
      "\"range_whole_s\": %.3f}\n",
      static_cast<unsigned long long>(report->records), static_cast<unsigned long long>(bytes),
      write_s, verify_s, report->ok() ? "true" : "false",
      static_cast<unsigned long long>(report->checkpoints),
      static_cast<unsigned long long>(report->uncovered_tail), recent.read.records,
      recent.read.files_read, recent.read.files, recent.seconds, whole.read.records,
      whole.read.files_read, whole.seconds);
  return report->ok() ? 0 : 1;
}
