// The policy that the trace tests replay: three 8-GPU nodes; alpha owns one,
// beta two; no lending, no borrowing (their delays are computed by hand).
#pragma once

#include <string_view>

namespace allot::testing {

inline constexpr std::string_view kHardQuota = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
spec: {}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {flavor: gpu, count: 3, resources: {gpu: 8}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 100}
---
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec:
  queueingStrategy: StrictFIFO
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8, borrowingLimit: 0, lendingLimit: 0}}}]
---
apiVersion: allot/v1
kind: Team
metadata: {name: beta}
spec:
  queueingStrategy: StrictFIFO
  quota: [{flavor: gpu, resources: {gpu: {nominal: 16, borrowingLimit: 0, lendingLimit: 0}}}]
)";

}  // namespace allot::testing
