// allot-audit-line-bench: the CPU of a submit's audit record on the request
// path (issue 15's overhead): its line's body, its outbox row's document, and
// the two together with the chain's hash. The record is the one allotd
// writes for `allot-bench api`'s submits (docs/benchmarks.md).
#include <cstdlib>
#include <string>
#include <string_view>

#include <benchmark/benchmark.h>

#include "governance/audit_event.h"
#include "governance/hash_chain.h"
#include "service/audit/audit_files.h"
#include "service/audit/audit_outbox_row.h"

namespace allot {
namespace {

// The outbox row allotd stored for one of `allot-bench api`'s submits (its
// workload's row, 2026-12-06), read back as the record it holds, answered.
governance::AuditEvent submit_record() {
  static constexpr std::string_view kStoredRow =
      R"([2,1,null,"/api/v1/namespaces/research/workloads","create","admin",["system:admins"],)"
      R"(["127.0.0.1"],0,"","allow",["User \"admin\" may create workloads in namespace )"
      R"(\"research\"",69],"ClusterRoleBinding \"system:admins\" grants ClusterRole )"
      R"(\"cluster-admin\": verbs [*] on [*] in apiGroups [*]",1796581826388,0,)"
      R"(["workloads","research","","","allot.dev"]])";
  Result<audit::OutboxRow> row =
      audit::parse_outbox_row("01a24c9f-235b-7f5a-9917-ada7e9c14831", std::string(kStoredRow));
  if (!row.ok()) std::abort();  // the row above is one allotd wrote
  governance::AuditEvent event = std::move(row->event);
  event.response_code = 201;
  event.stage_time = Timestamp::from_millis(event.request_received.ms() + 3);
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
