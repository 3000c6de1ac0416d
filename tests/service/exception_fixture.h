// The PolicyException tests' fixture (exception_control_test.cc,
// exception_request_control_test.cc): one team without a cohort, its
// exception documents, and whether a workload holds its capacity.
#pragma once

#include <string>

#include "control_plane_fixture.h"

namespace allot::testing {

// One team without a cohort (nothing to borrow): 8 GPUs of quota on three
// 8-GPU nodes.
inline constexpr const char* kLoneTeamPolicy = R"(
apiVersion: allot/v1
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
metadata: {name: pool}
spec: {cluster: local, flavor: gpu, count: 3, resources: {gpu: 8, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: urgent}
spec: {value: 100}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
  allowedPriorityClasses: [low]
)";

// The fixture's clock starts at 2027-01-15T08:00:00Z.
inline std::string exception_yaml(const std::string& name, const std::string& relaxes,
                                  const std::string& expires, const std::string& approver = "bob") {
  return "apiVersion: allot/v1\nkind: PolicyException\nmetadata: {name: " + name +
         "}\nspec:\n  team: research\n  relaxes: " + relaxes +
         "\n  owner: ana\n  reason: paper deadline\n  approver: " + approver + "\n  expires: \"" +
         expires + "\"\n";
}

class ExceptionFixture : public ControlPlaneTest {
 protected:
  bool holds(const std::string& name) {
    const std::string now = phase("research", name);
    return now == "Admitted" || now == "Running";
  }
};

}  // namespace allot::testing
