// allot-audit-bench [RECORDS] [FOLDER]: the audit log at issue 15's scale.
// Writes RECORDS (default 1,000,000) request-like records through the
// AuditLog writer (appends, a signed checkpoint every 1,000, rotation at
// 64 MiB), then times `allot audit verify`'s check of them
// (verify_audit_log: every hash of the chain and every checkpoint's
// signature). Goal (issue 15): verify of 1,000,000 records <= 5 s.
// FOLDER (default: a fresh one under /tmp) is removed at the end.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "base/clock.h"
#include "base/logger.h"
#include "service/audit/audit_log.h"
#include "service/audit/audit_reading.h"

namespace {

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
  event.request_received =
      allot::Timestamp::from_millis(1'764'754'505'000 + static_cast<int64_t>(i));
  event.stage_time = event.request_received;
  return event;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
  std::filesystem::remove_all(root);
  if (!report.ok()) {
    std::fprintf(stderr, "verify failed: %s\n", report.status().message().c_str());
    return 1;
  }
  std::printf(
      "{\"records\": %llu, \"bytes\": %llu, \"write_s\": %.3f, \"verify_s\": %.3f, "
      "\"verified\": %s, \"checkpoints\": %llu, \"uncovered_tail\": %llu, \"goal_verify_s\": 5}\n",
      static_cast<unsigned long long>(report->records), static_cast<unsigned long long>(bytes),
      write_s, verify_s, report->ok() ? "true" : "false",
      static_cast<unsigned long long>(report->checkpoints),
      static_cast<unsigned long long>(report->uncovered_tail));
  return report->ok() ? 0 : 1;
}
