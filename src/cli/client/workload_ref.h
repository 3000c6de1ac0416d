// WorkloadRef: a workload named on the command line, `NAME -n NS` or
// `NS/NAME`, as `allot describe`, `cancel`, `logs` and `delete` take it; also
// a Role or RoleBinding, which live in namespaces too.
//
// Contract: workloads live in namespaces (a team's), and there is no default
// namespace: without `-n` the name must be "NS/NAME". A namespace given both
// ways must agree. Errors are kInvalidArgument. Pure.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace allot::cli {

struct WorkloadRef {
  std::string namespace_name;
  std::string name;

  friend bool operator==(const WorkloadRef&, const WorkloadRef&) = default;
};

Result<WorkloadRef> parse_workload_ref(const std::string& argument,
                                       const std::string& namespace_flag);

// The same for any namespaced kind (roles, rolebindings); `noun` names the
// kind in errors ("role").
Result<WorkloadRef> parse_namespaced_ref(std::string_view noun, const std::string& argument,
                                         const std::string& namespace_flag);

}  // namespace allot::cli
