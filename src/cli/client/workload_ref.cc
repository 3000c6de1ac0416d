#include "cli/client/workload_ref.h"

namespace allot::cli {

Result<WorkloadRef> parse_namespaced_ref(std::string_view noun, const std::string& argument,
                                         const std::string& namespace_flag) {
  const std::string kind(noun);
  WorkloadRef ref{namespace_flag, argument};
  if (const size_t slash = argument.find('/'); slash != std::string::npos) {
    ref.namespace_name = argument.substr(0, slash);
    ref.name = argument.substr(slash + 1);
    if (!namespace_flag.empty() && namespace_flag != ref.namespace_name) {
      return invalid_argument(kind + " '" + argument + "' is in namespace '" + ref.namespace_name +
                              "' but -n says '" + namespace_flag + "'");
    }
  }
  if (ref.name.empty() || ref.name.find('/') != std::string::npos) {
    return invalid_argument("bad " + kind + " name '" + argument + "' (expected NAME or NS/NAME)");
  }
  if (ref.namespace_name.empty()) {
    return invalid_argument(kind + " '" + argument +
                            "' needs its namespace: give -n NAMESPACE or NS/NAME");
  }
  return ref;
}

Result<WorkloadRef> parse_workload_ref(const std::string& argument,
                                       const std::string& namespace_flag) {
  return parse_namespaced_ref("workload", argument, namespace_flag);
}

}  // namespace allot::cli
