// allot-audit-line-bench: the CPU of a submit's audit record on the request
// path (issue 15's overhead): its line's body, its outbox row's document, and
// the two together with the chain's hash. The record is the one allotd
// writes for `allot-bench api`'s submits (docs/benchmarks.md).
#include <string>

#include <benchmark/benchmark.h>

#include "governance/audit_event.h"
#include "governance/hash_chain.h"
#include "service/audit/audit_files.h"
#include "service/audit/audit_outbox_row.h"

namespace allot {
namespace {

governance::AuditEvent submit_record() {
  governance::AuditEvent event;
  event.audit_id = "01a24c9f-235b-7f5a-9917-ada7e9c14831";
  event.request_uri = "/api/v1/namespaces/research/workloads";
  event.verb = "create";
  event.username = "admin";
  event.groups = {"system:admins"};
  event.source_ips = {"127.0.0.1"};
  event.object_ref = governance::AuditObjectRef{"workloads", "research", "", "", "allot.dev"};
  event.response_code = 201;
  event.decision = "allow";
  event.rbac_rule =
      "ClusterRoleBinding \"system:admins\" grants ClusterRole \"cluster-admin\": verbs [*] on "
      "[*] in apiGroups [*]";
  event.reason =
      "User \"admin\" may create workloads in namespace \"research\": ClusterRoleBinding "
      "\"system:admins\" grants ClusterRole \"cluster-admin\" (verbs [*] on [*] in apiGroups [*])";
  event.request_received = Timestamp::from_millis(1'796'581'826'388);
  event.stage_time = Timestamp::from_millis(1'796'581'826'391);
  return event;
}

void audit_line_body(benchmark::State& state) {
  const governance::AuditEvent event = submit_record();
  std::string body;
  for (auto _ : state) {
    body.clear();
    governance::append_audit_line_body(body, event);
    benchmark::DoNotOptimize(body.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
}
BENCHMARK(audit_line_body);

void audit_outbox_document(benchmark::State& state) {
  const governance::AuditEvent event = submit_record();
  for (auto _ : state) benchmark::DoNotOptimize(audit::outbox_row_document(3001, event));
}
BENCHMARK(audit_outbox_document);

// The line as the log chains it: body, header and SHA-256 (audit_files.h).
void audit_chained_line(benchmark::State& state) {
  const governance::AuditEvent event = submit_record();
  governance::AuditChain chain(audit::audit_sha256_hex,
                               governance::ChainHead{0, std::string(governance::kGenesisHash)});
  std::string body;
  std::string line;
  for (auto _ : state) {
    body.clear();
    governance::append_audit_line_body(body, event);
    line = chain.append_body(body, std::move(line));
    line.clear();
  }
}
BENCHMARK(audit_chained_line);

}  // namespace
}  // namespace allot

BENCHMARK_MAIN();
