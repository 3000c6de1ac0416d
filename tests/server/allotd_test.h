// AllotdTest: a gtest fixture that runs a real allotd (AllotdProcess) on a
// fresh data folder per test, with helpers to apply policy, submit workloads
// and wait for their state through the REST API (docs/api.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/types.h>

#include "allotd_process.h"
#include "api_http.h"

namespace allot::server_test {

// Three nodes of 4 GPUs (node-0, node-1, node-2, 12 GPUs); teams `prod`
// (4 GPUs, reclaims what it lends) and `research` (8 GPUs) share cohort
// `org`; priority classes `high` and `low`, both with a 1 s grace period.
inline constexpr const char* kTestPolicy = R"(apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 1s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: node}
spec: {cluster: local, flavor: gpu, count: 3, resources: {gpu: 4, cpu: 16, memory: 16Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: high}
spec: {value: 1000, preemptionPolicy: PreemptLowerPriority, preemptionGracePeriod: 1s}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, preemptionPolicy: PreemptLowerPriority, preemptionGracePeriod: 1s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: prod}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 4}}}]
  preemption: {reclaimWithinCohort: Any, withinTeam: LowerPriority}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
  preemption: {reclaimWithinCohort: Never, withinTeam: LowerPriority}
)";

// What a workload asks for; command is run with /bin/sh -c.
struct WorkloadSpec {
  std::string script = "true";
  int gpus = 1;
  int pods = 1;
  std::string priority = "low";
};

// A Workload manifest as JSON (no namespace: the URL gives it).
nlohmann::json workload_json(const std::string& name, const WorkloadSpec& spec = {});

// Quotes `text` for /bin/sh.
std::string shell_quote(const std::string& text);

// Adds a failure for each request sent to `allotd` (AllotdProcess::sent)
// that its audit log lacks, and for an audit log that does not verify.
void expect_audited(const AllotdProcess& allotd);

class AllotdTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Flags added to allotd's command line.
  virtual std::vector<std::string> allotd_flags() { return {}; }

  // POST /api/v1/apply; expects 200.
  nlohmann::json apply(const std::string& yaml);
  // POST a workload; expects 201 and returns the object.
  nlohmann::json submit(const std::string& ns, const std::string& name,
                        const WorkloadSpec& spec = {});
  // GET the workload (null when the answer is not 200).
  nlohmann::json workload(const std::string& ns, const std::string& name);
  // Polls the workload until `done` holds for it; the last answer either way.
  // On a timeout, adds a failure naming `what`.
  nlohmann::json wait_until(const std::string& ns, const std::string& name,
                            const std::function<bool(const nlohmann::json&)>& done,
                            const std::string& what);
  nlohmann::json wait_phase(const std::string& ns, const std::string& name,
                            const std::string& phase);
  // The pod's log from `offset`.
  Reply log(const std::string& ns, const std::string& name, int64_t offset = 0, int pod = 0);
  // Polls the log until it contains `text`; the whole log.
  std::string wait_log(const std::string& ns, const std::string& name, const std::string& text);
  // The `type`s of the workload's events, in order.
  std::vector<std::string> event_types(const std::string& ns, const std::string& name);
  // Polls the events until one of type `type` is there; their types. (Events
  // are read from the store, which may lag the phase a GET shows by one
  // commit.)
  std::vector<std::string> wait_event(const std::string& ns, const std::string& name,
                                      const std::string& type);
  // A file path inside the test's temporary folder.
  [[nodiscard]] std::string temp_file(const std::string& name) const;
  // Creates an empty file (readable by pods).
  static void touch(const std::string& path);

  AllotdProcess allotd_;
  ApiHttp api_{allotd_};
};

// The phase of a workload object, or "" when it is not one.
std::string phase_of(const nlohmann::json& workload);

// Whether `pid` is a live process (not gone, not a zombie).
bool process_alive(pid_t pid);

}  // namespace allot::server_test
